#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import CommandLineKit
import Diagnostics
import Presentation
import QuickBloxAPI

/// `chatctl status`: who, since when, until when, against which endpoints.
struct StatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show who is logged in, since when, and until when.",
        discussion: """
            Asks the server, which extends the session: the expiry shown is the \
            extended one. A session the server has forgotten is renewed with the \
            password (--password-file, $CHATCTL_PASSWORD or a prompt); exits 4 \
            when not logged in, or when it has expired and cannot be renewed. \
            Method says how the session was made: a password, or a session \
            token (login --token-stdin).
            """,
        examples: [
            Example("Who is logged in, and until when", "chatctl status"),
            Example("The session as JSON", "chatctl status --json"),
            Example("In a script: log in when there is no session (status exits 4)", "chatctl status > /dev/null || chatctl login -l alice"),
        ])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let keeper = try context.sessionKeeper()
        let password = try context.renewalPassword()
        var warning: String?
        let session: StoredSession
        do {
            // Asking the server slides the expiry: what is shown is the extended one.
            session = try keeper.liveSession(checked: .now, password: password).0.stored
        } catch where error.kind == .temporary {
            // The server is out of reach: say what we last knew, and that it is unverified.
            session = try keeper.storedSession()
            if session.isExpired(now: Date().timeIntervalSince1970) {
                if session.method == .token { throw Failure(.authentication, "the session token has expired", hint: Failure.tokenExpiredHint) }
                throw Failure(.authentication, "the session has expired", hint: "run 'chatctl login' again")
            }
            warning = "could not verify the session with the server (\(error.message)); showing the saved one"
        } catch {
            throw error
        }
        if let warning { context.io.warn("warning: \(warning)") }

        let config = keeper.config
        if json {
            context.io.writeOut(JSONOutput.line(.object([
                "user": .object(session.user),
                "logged_in_at": .string(TimeText.iso8601(session.loggedInAt)),
                "expires_at": .string(TimeText.iso8601(session.expiresAt)),
                "endpoints": .object(["api": .string(config.apiEndpoint), "chat": .string(config.chatEndpoint.description)]),
                "login_method": .string(session.method.rawValue),
            ])))
            return .ok
        }
        let now = Date().timeIntervalSince1970
        var who = TerminalText.sanitize(session.login ?? "user", newlines: .asSpaces) + " (id \(session.userId)"
        if case .string(let name)? = session.user["full_name"], !name.isEmpty, name != session.login {
            who += ", \"\(TerminalText.sanitize(name, newlines: .asSpaces))\""
        }
        who += ")"
        context.io.writeOut("""
            Logged in as \(who)
            Since:    \(TimeText.local(session.loggedInAt))
            Expires:  \(TimeText.local(session.expiresAt)) (\(TimeText.relative(session.expiresAt, now: now)))
            Method:   \(session.method == .token ? "session token" : "password")
            API:      \(config.apiEndpoint)
            Chat:     \(config.chatEndpoint) as \(config.chatJID(userId: session.userId))

            """)
        return .ok
    }
}
