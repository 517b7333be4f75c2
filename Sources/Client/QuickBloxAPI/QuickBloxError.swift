#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Why a QuickBlox call failed. Carries the request line, the status and the
/// server's `errors` text; never a password, token or body.
package struct QuickBloxError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The server answered with a status other than 200/201/202.
        case http(status: Int)
        /// No usable answer: could not connect, timed out, TLS failed.
        case transport(HTTPError.Kind)
        /// A 2xx answer whose body was not what the protocol says.
        case invalidResponse
    }
    package var kind: Kind
    /// Method and URL without query, e.g. "POST http://127.0.0.1:8080/users.json".
    package var request: String
    /// `errors` flattened to sentences: "login has already been taken", "Unauthorized".
    package var reasons: [String]
    /// `errors` when it was an object (field -> messages); empty for the array shape.
    package var fieldErrors: [String: [String]]
    /// The session gone was made from a token (`login --token-stdin`) and no password was at
    /// hand to renew it: the token has expired, and only a new login or token helps.
    package var sessionFromToken = false

    package init(kind: Kind, request: String, reasons: [String], fieldErrors: [String: [String]] = [:]) {
        self.kind = kind; self.request = request; self.reasons = reasons; self.fieldErrors = fieldErrors
    }

    /// From a non-success response: parses `errors` in both shapes (array of strings,
    /// or object of field -> strings with `base` for general errors). A missing or
    /// non-JSON body still yields a reason such as "HTTP 503 Service Unavailable".
    package init(status: Int, request: String, body: [UInt8]) {
        let parsed = ErrorBody(body)
        var reasons = parsed.reasons
        if reasons.isEmpty { reasons = [Self.fallbackReason(status: status)] }
        self.init(kind: .http(status: status), request: request, reasons: reasons, fieldErrors: parsed.fieldErrors)
    }

    /// The HTTP status for `.http` errors.
    package var status: Int? {
        if case .http(let status) = kind { return status }
        return nil
    }

    /// One line, e.g. "POST http://127.0.0.1:8080/login.json: 401 Unauthorized".
    package var description: String {
        let text = reasons.joined(separator: "; ")
        switch kind {
        case .http(let status):
            if reasons == [Self.fallbackReason(status: status)] { return "\(request): \(text)" }
            return "\(request): \(status) \(text)"
        case .transport:
            return "\(request): \(text)"
        case .invalidResponse:
            return "\(request): unexpected response: \(text)"
        }
    }

    /// Sign-up answered 422 with a `login` (or `email`) "taken" field error.
    /// The wording of "taken" varies ("has already been taken", "taken.", "is
    /// already in use"), so any message on those fields counts, except one that
    /// says the value is missing or malformed: logging in cannot help with
    /// "can't be blank" (docs/protocol.md §3).
    package var isLoginTaken: Bool {
        guard status == 422 else { return false }
        let messages = (fieldErrors["login"] ?? []) + (fieldErrors["email"] ?? [])
        return messages.contains { !Self.saysMissingOrMalformed($0) }
    }

    static func saysMissingOrMalformed(_ message: String) -> Bool {
        let text = message.lowercased()
        return ["blank", "empty", "invalid", "too short", "too long", "format"].contains { text.contains($0) }
    }

    /// 401: bad credentials, or a missing/expired session token.
    package var isUnauthorized: Bool { status == 401 }

    /// 401 saying the session token is unknown, expired or missing, as opposed to
    /// wrong credentials ("Unauthorized"): a new session may cure it (docs/protocol.md §2, §4).
    package var isSessionGone: Bool {
        guard status == 401 else { return false }
        return reasons.contains { reason in
            let text = reason.lowercased()
            return text.contains("session does not exist") || text.contains("expired") || text.contains("token is required")
        }
    }

    static func fallbackReason(status: Int) -> String {
        let phrase: String? = switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
        return phrase.map { "HTTP \(status) \($0)" } ?? "HTTP \(status)"
    }
}

/// The `errors` member of a QuickBlox error body, in either shape.
struct ErrorBody {
    var reasons: [String] = []
    var fieldErrors: [String: [String]] = [:]

    init(_ body: [UInt8]) {
        guard !body.isEmpty, let json = try? JSONValue(parsing: body) else { return }
        switch json["errors"] {
        case .array(let items)?:
            reasons = items.compactMap(Self.text)
        case .object(let fields)?:
            // `base` first (general errors, no field prefix), then fields alphabetically.
            for field in fields.keys.sorted(by: { ($0 == "base" ? "" : $0) < ($1 == "base" ? "" : $1) }) {
                let messages: [String]
                switch fields[field] {
                case .array(let items)?: messages = items.compactMap(Self.text)
                case let value?: messages = Self.text(value).map { [$0] } ?? []
                case nil: messages = []
                }
                fieldErrors[field] = messages
                for message in messages {
                    let sentence = Self.withoutTrailingPeriod(message)
                    reasons.append(field == "base" ? sentence : "\(field) \(sentence)")
                }
            }
        case .string(let message)?:
            reasons = [message]
        default:
            // Some endpoints answer {"message": "..."} or {"error": "..."} instead.
            if let message = json["message"]?.stringValue ?? json["error"]?.stringValue { reasons = [message] }
        }
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        default: return nil
        }
    }

    private static func withoutTrailingPeriod(_ text: String) -> String {
        text.hasSuffix(".") && !text.hasSuffix("..") ? String(text.dropLast()) : text
    }
}
