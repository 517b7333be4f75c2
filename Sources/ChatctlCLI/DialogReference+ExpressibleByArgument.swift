import CommandLineKit
import Messaging

/// DIALOG on the command line (`send @bob`, `--dialog ops`): read once by the parser.
extension DialogReference: ExpressibleByArgument {
    package init?(argument: String) {
        guard let reference = try? DialogReference(parsing: argument) else { return nil }
        self = reference
    }

    package static var expectedValue: String? { "a dialog id, @login or an exact dialog name" }
}
