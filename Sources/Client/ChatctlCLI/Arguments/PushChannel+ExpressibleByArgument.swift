import CommandLineKit
import QuickBloxAPI

/// `push send --channel apns|apns_voip|gcm|email`: QuickBlox's own names.
extension QBPushNotification.Channel: ExpressibleByArgument {
    package init?(argument: String) { self.init(rawValue: argument) }

    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
    package static var expectedValue: String? { "one of: " + allValueStrings.joined(separator: ", ") }
}
