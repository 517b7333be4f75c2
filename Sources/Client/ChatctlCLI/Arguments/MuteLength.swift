import CommandLineKit

/// `dialogs mute --for 8h`: how long a mute lasts, its unit always spelled (`45m`, `8h`, `7d`,
/// `2h30m`). A bare number is refused, not read as seconds: `--for 8` means eight hours far
/// more often than eight seconds, and a mute that ended before anyone looked would say nothing.
struct MuteLength: ExpressibleByArgument, Equatable {
    let seconds: Int

    init?(argument: String) {
        guard let seconds = Duration.seconds(spelled: argument), seconds > 0 else { return nil }
        self.seconds = seconds
    }

    static var expectedValue: String? { "a length with its unit: 45m, 8h, 7d, 2h30m" }

    static func refusal(of text: String) -> String? {
        guard let number = Int(text), number > 0 else { return nil }
        return "give its unit: \(number)m, \(number)h or \(number)d (\(number)s for seconds)"
    }
}
