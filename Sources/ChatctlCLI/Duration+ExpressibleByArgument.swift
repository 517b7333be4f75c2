import CommandLineKit

/// `listen --timeout 30s`: a length of time as `30s`, `5m`, `2h`, `7d` or plain
/// seconds, more than none.
extension Duration: ExpressibleByArgument {
    package init?(argument: String) {
        guard let seconds = Self.seconds(spelled: argument) ?? Int(argument), seconds > 0 else { return nil }
        self = .seconds(seconds)
    }

    package static var expectedValue: String? { "a duration: 30s, 5m, 2h or seconds" }

    /// The seconds `30s`, `5m`, `2h` or `7d` spell (`--since 2h` too), or nil; so
    /// many that they cannot be counted are none.
    static func seconds(spelled text: String) -> Int? {
        guard let unit = text.last, let value = Int(text.dropLast()), value >= 0 else { return nil }
        let scale: Int
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86400
        default: return nil
        }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : seconds
    }
}
