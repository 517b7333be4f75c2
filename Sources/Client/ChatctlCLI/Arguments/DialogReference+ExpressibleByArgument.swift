import CommandLineKit
import Messaging

/// DIALOG on the command line (`send @bob`, `--dialog ops`): read once by the parser.
extension DialogReference: ExpressibleByArgument {
    package init?(argument: String) {
        guard let reference = try? DialogReference(parsing: argument) else { return nil }
        self = reference
    }

    package static var expectedValue: String? { "a dialog id, @login, an email address or a dialog name" }

    /// The parser's own reason ("'@' needs a login after it, like @alice").
    package static func refusal(of text: String) -> String? {
        do { _ = try DialogReference(parsing: text); return nil } catch { return error.description }
    }
}
