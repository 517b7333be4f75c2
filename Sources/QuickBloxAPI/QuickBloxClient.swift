// CONTRACT STUB — to be replaced by the real implementation (keep these signatures).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Any JSON value, kept as received so `--json` can print QuickBlox objects unchanged.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    public init(from decoder: any Decoder) throws { fatalError("stub") }
    public func encode(to encoder: any Encoder) throws { fatalError("stub") }
}

public enum SignatureAlgorithm: String, Sendable { case hmacSHA1 = "sha1", hmacSHA256 = "sha256" }

public struct AppCredentials: Sendable, Equatable {
    public var applicationId: Int
    public var authKey: String
    public var authSecret: String
    public var accountKey: String?
    public var signatureAlgorithm: SignatureAlgorithm
    public init(applicationId: Int, authKey: String, authSecret: String, accountKey: String? = nil, signatureAlgorithm: SignatureAlgorithm = .hmacSHA1) {
        self.applicationId = applicationId; self.authKey = authKey; self.authSecret = authSecret
        self.accountKey = accountKey; self.signatureAlgorithm = signatureAlgorithm
    }
}

public struct UserCredentials: Sendable {
    public enum Identity: Sendable, Equatable { case login(String), email(String) }
    public var identity: Identity
    public var password: String
    public init(identity: Identity, password: String) { self.identity = identity; self.password = password }
}

/// A QuickBlox user: the common fields typed, every field as received in `raw`.
public struct QBUser: Sendable, Equatable {
    public var id: Int
    public var login: String?
    public var fullName: String?
    public var email: String?
    public var raw: [String: JSONValue]
    public init(id: Int, login: String?, fullName: String?, email: String?, raw: [String: JSONValue]) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email; self.raw = raw
    }
}

public struct QBSession: Sendable, Equatable {
    public var token: String
    public var applicationId: Int
    public var userId: Int
    /// From `QB-Token-ExpirationDate`, else two hours after the request.
    public var expiresAt: Date
}

public struct QuickBloxError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server answered with a status other than 200/201/202.
        case http(status: Int)
        /// No usable answer: could not connect, timed out, TLS failed.
        case transport(HTTPError.Kind)
        /// A 2xx answer whose body was not what the protocol says.
        case invalidResponse
    }
    public var kind: Kind
    /// Method and URL without query, e.g. "POST http://127.0.0.1:8080/users.json".
    public var request: String
    /// `errors` flattened to sentences: "login has already been taken", "Unauthorized".
    public var reasons: [String]
    /// `errors` when it was an object (field -> messages); empty for the array shape.
    public var fieldErrors: [String: [String]]
    public var description: String { fatalError("stub") }
    /// Sign-up answered 422 with a `login` (or `email`) "taken" field error.
    public var isLoginTaken: Bool { fatalError("stub") }
}

/// The QuickBlox REST API (protocol doc sections 2-4). Blocking calls; one instance per thread.
public final class QuickBloxClient {
    /// The session token sent as `QB-Token` (set by createSession; may be set by the caller to reuse one).
    public var token: String?
    /// Latest expiry reported by the server (`QB-Token-ExpirationDate`), or now+2h.
    public private(set) var tokenExpiresAt: Date?
    public init(apiEndpoint: String, credentials: AppCredentials, transport: any HTTPTransporting, requestTimeout: Double = 30) { fatalError("stub") }
    public func createSession(user: UserCredentials? = nil) throws(QuickBloxError) -> QBSession { fatalError("stub") }
    public func currentSession() throws(QuickBloxError) -> QBSession { fatalError("stub") }
    public func deleteSession() throws(QuickBloxError) { fatalError("stub") }
    public func signUp(login: String, password: String, fullName: String?, email: String?) throws(QuickBloxError) -> QBUser { fatalError("stub") }
    public func logIn(_ credentials: UserCredentials) throws(QuickBloxError) -> QBUser { fatalError("stub") }
    public func logOut() throws(QuickBloxError) { fatalError("stub") }
    public func user(id: Int) throws(QuickBloxError) -> QBUser { fatalError("stub") }
    public func user(login: String) throws(QuickBloxError) -> QBUser { fatalError("stub") }
}
