import AuthFlow
import CommandLineKit
import Diagnostics
import Presentation
import QuickBloxAPI

/// `chatctl logout`: end the session on the server and remove it here.
struct LogoutCommand: Command {
    static let configuration = CommandConfiguration(
        name: "logout",
        abstract: "End the session on the server and forget it here.",
        examples: [
            Example("End the session, on the server and here", "chatctl logout"),
            Example("End the session of the profile work", "chatctl -p work logout"),
            Example("Say what was done as JSON", "chatctl logout --json"),
        ])

    @Flag("json", help: "Print what was done as JSON: logged_out, login, ended_on_server.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let keeper = try context.sessionKeeper()
        let outcome = try keeper.logOut()
        let json = json ? JSONOutput.line(Self.object(outcome)) : nil
        switch outcome {
        case .loggedOut(let login):
            context.tellChange("logged out\(login.map { " " + $0 } ?? "")", json: json)
        case .removedLocally(let login, let serverError):
            context.io.warn("warning: \(serverError.message); the server may keep the session until it expires")
            context.tellChange("logged out\(login.map { " " + $0 } ?? "") (here only)", json: json)
        case .wasNotLoggedIn:
            if let json { context.io.writeOut(json) }
            context.io.writeErr("chatctl: not logged in; nothing to do\n")
        }
        return .ok
    }

    /// `--json`: whether a session was forgotten here, whose, and whether the server ended it too.
    static func object(_ outcome: SessionKeeper.LogoutOutcome) -> JSONValue {
        let (loggedOut, login, onServer): (Bool, String?, Bool)
        switch outcome {
        case .loggedOut(let who): (loggedOut, login, onServer) = (true, who, true)
        case .removedLocally(let who, _): (loggedOut, login, onServer) = (true, who, false)
        case .wasNotLoggedIn: (loggedOut, login, onServer) = (false, nil, false)
        }
        return .object(["logged_out": .bool(loggedOut), "login": login.map(JSONValue.string) ?? .null, "ended_on_server": .bool(onServer)])
    }
}
