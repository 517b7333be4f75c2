import AuthFlow
import CommandLineKit
import Diagnostics
import Presentation

/// `chatctl logout`: end the session on the server and remove it here.
struct LogoutCommand: Command {
    static let configuration = CommandConfiguration(
        name: "logout",
        abstract: "End the session on the server and forget it here.")

    func run(_ context: CommandContext) throws -> ExitCode {
        let keeper = try context.sessionKeeper()
        switch try keeper.logOut() {
        case .loggedOut(let login):
            context.io.writeOut("Logged out\(login.map { " " + TerminalText.sanitize($0, newlines: .asSpaces) } ?? "").\n")
        case .removedLocally(let login, let serverError):
            context.io.warn("warning: \(serverError.message); the server may keep the session until it expires")
            context.io.writeOut("Logged out\(login.map { " " + TerminalText.sanitize($0, newlines: .asSpaces) } ?? "") (here only).\n")
        case .wasNotLoggedIn:
            context.io.writeErr("chatctl: not logged in; nothing to do\n")
        }
        return .ok
    }
}
