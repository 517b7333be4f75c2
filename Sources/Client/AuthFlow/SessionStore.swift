#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import QuickBloxAPI

/// How a session was made: by logging in with a password, or from a session token another
/// program made (`login --token-stdin`), which no password comes with.
package enum LoginMethod: String, Sendable, Equatable {
    case password, token
}

/// What `chatctl login` leaves behind for later commands.
package struct StoredSession: Sendable, Equatable {
    package var token: String
    /// Unix seconds; the server slides it on every request.
    package var expiresAt: Double
    /// Unix seconds of the login.
    package var loggedInAt: Double
    package var userId: Int
    package var login: String?
    /// The QuickBlox user object as the server sent it.
    package var user: [String: JSONValue]
    package var applicationId: Int
    package var apiEndpoint: String
    package var chatEndpoint: String
    /// A file written before there were token logins has none: a password made it.
    package var method: LoginMethod

    /// The file's keys.
    enum Key: String {
        case token, expiresAt = "expires_at", loggedInAt = "logged_in_at", userId = "user_id", login, user
        case applicationId = "application_id", apiEndpoint = "api_endpoint", chatEndpoint = "chat_endpoint"
        case method = "login_method"
    }

    package init(token: String, expiresAt: Double, loggedInAt: Double, userId: Int, login: String?,
                user: [String: JSONValue], applicationId: Int, apiEndpoint: String, chatEndpoint: String,
                method: LoginMethod = .password) {
        self.token = token; self.expiresAt = expiresAt; self.loggedInAt = loggedInAt; self.userId = userId
        self.login = login; self.user = user; self.applicationId = applicationId
        self.apiEndpoint = apiEndpoint; self.chatEndpoint = chatEndpoint; self.method = method
    }

    package func isExpired(now: Double) -> Bool { now >= expiresAt }

    /// The file's object as `save` writes it, or wrote it with Foundation's encoder before
    /// (`/` then escaped as `\/`, which every JSON reader reads as `/`): the keys of
    /// `Key`, `login` and `login_method` optional; nil when a key is missing or of another type.
    /// Read by hand: JSONDecoder cost every command a fraction of a millisecond.
    package init?(json: JSONValue) {
        func number(_ key: Key) -> Double? {
            switch json[key.rawValue] {
            case .int(let value)?: return Double(value)
            case .double(let value)?: return value
            default: return nil
            }
        }
        func integer(_ key: Key) -> Int? {
            guard case .int(let value)? = json[key.rawValue] else { return nil }
            return value
        }
        func text(_ key: Key) -> String? { json[key.rawValue]?.stringValue }
        guard let token = text(.token), let expiresAt = number(.expiresAt), let loggedInAt = number(.loggedInAt),
              let userId = integer(.userId), case .object(let user)? = json[Key.user.rawValue],
              let applicationId = integer(.applicationId), let apiEndpoint = text(.apiEndpoint),
              let chatEndpoint = text(.chatEndpoint) else { return nil }
        let login: String?
        switch json[Key.login.rawValue] {
        case nil, .null?: login = nil
        case .string(let value)?: login = value
        default: return nil
        }
        let method: LoginMethod
        switch json[Key.method.rawValue] {
        case nil, .null?: method = .password
        case .string(let value)?:
            guard let known = LoginMethod(rawValue: value) else { return nil }
            method = known
        default: return nil
        }
        self.init(token: token, expiresAt: expiresAt, loggedInAt: loggedInAt, userId: userId, login: login, user: user,
                  applicationId: applicationId, apiEndpoint: apiEndpoint, chatEndpoint: chatEndpoint, method: method)
    }

    /// The object `save` writes (without `login` when there is none, nor `login_method` for a password's).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            Key.token.rawValue: .string(token), Key.expiresAt.rawValue: .double(expiresAt),
            Key.loggedInAt.rawValue: .double(loggedInAt), Key.userId.rawValue: .int(userId),
            Key.user.rawValue: .object(user), Key.applicationId.rawValue: .int(applicationId),
            Key.apiEndpoint.rawValue: .string(apiEndpoint), Key.chatEndpoint.rawValue: .string(chatEndpoint),
        ]
        if let login { object[Key.login.rawValue] = .string(login) }
        // A password's session file stays as it always was.
        if method != .password { object[Key.method.rawValue] = .string(method.rawValue) }
        return .object(object)
    }
}

/// The session file for one config in the state directory:
/// `{stateDir}/session-{configKey}.json`, 0600 in a 0700 directory.
package struct SessionStore: Sendable {
    package let directory: String
    package let key: String

    package init(directory: String, key: String) { self.directory = directory; self.key = key }

    /// `--state-dir`, then `CHATCTL_STATE_DIR`, then `$XDG_STATE_HOME/chatctl`
    /// (`~/.local/state/chatctl` when XDG_STATE_HOME is unset).
    package static func resolveDirectory(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["CHATCTL_STATE_DIR"], !env.isEmpty { return env }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/chatctl" }
        return (environment["HOME"] ?? "") + "/.local/state/chatctl"
    }

    package var path: String { "\(directory)/session-\(key).json" }

    /// nil when there is no session; an unreadable or corrupt file is reported.
    package func load() throws(Failure) -> StoredSession? {
        guard let bytes = PrivateFiles.read(path) else { return nil }
        guard let json = try? JSONValue(parsing: bytes), let session = StoredSession(json: json) else {
            throw Failure(.authentication, "the saved session in \(path) is unreadable",
                                hint: "run 'chatctl login' again")
        }
        return session
    }

    package func save(_ session: StoredSession) throws(Failure) {
        do { try PrivateFiles.writeAtomically(path, Array(session.json.compactText.utf8)) } catch {
            throw Failure(.failure, "cannot save the session: \(error)",
                                hint: "check that the state directory is writable, or pass --state-dir")
        }
    }

    package func remove() throws(Failure) {
        do { try PrivateFiles.remove(path) } catch {
            throw Failure(.failure, "cannot remove the session: \(error)")
        }
    }
}
