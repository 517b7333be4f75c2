#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// The QuickBlox REST API (docs/protocol.md §2–4). Blocking calls; one instance per thread.
package final class QuickBloxClient {
    /// The session token sent as `QB-Token` (set by createSession; may be set by the caller to reuse one).
    package var token: String?
    /// Latest expiry reported by the server (`QB-Token-ExpirationDate`), or now+2h;
    /// set it with `token` to carry on with a stored session.
    package var tokenExpiresAt: Date?
    /// Base URL without a trailing slash, e.g. "https://api.quickblox.com".
    package let apiEndpoint: String
    package let credentials: AppCredentials
    /// Seconds allowed for each whole request.
    package var requestTimeout: Double
    /// Streamed files (docs/protocol.md §8) give up after this many seconds without a byte.
    package var transferStallTimeout: Double = 30
    /// Retries of 429/502/503/504; `.immediate` in tests, `.never` to disable.
    package var retryPolicy: RetryPolicy = .standard
    /// Told of each extended expiry, asked to renew a session the server no longer has.
    /// Nil: a 401 is the caller's to handle.
    package var sessionRenewal: (any SessionRenewing)?

    private let transport: any HTTPTransporting
    /// The same transport, for streamed files (the blob upload and download); nil
    /// when it cannot stream (a test double of JSON exchanges).
    var fileTransport: (any HTTPFileTransferring)? { transport as? any HTTPFileTransferring }
    /// Without a `QB-Token-ExpirationDate` header, a token lives two hours after the last request.
    private static let defaultTokenLifetime: Double = 2 * 60 * 60

    package init(apiEndpoint: String, credentials: AppCredentials, transport: any HTTPTransporting, requestTimeout: Double = 30) {
        var endpoint = apiEndpoint
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        self.apiEndpoint = endpoint
        self.credentials = credentials
        self.transport = transport
        self.requestTimeout = requestTimeout
    }

    // MARK: - Sessions

    /// `POST /session.json`, signed; with `user`, opens a user session in one call.
    /// Stores the new token in `token`.
    @discardableResult
    package func createSession(user: UserCredentials? = nil) throws(QuickBloxError) -> QBSession {
        // The signature needs libcrypto, loaded on first use: without it no attempt can be made.
        guard RequestSigner.canSign else {
            throw QuickBloxError(kind: .transport(.localFile), request: "POST \(apiEndpoint)/session.json",
                                 reasons: [RequestSigner.signingUnavailable])
        }
        // The body is rebuilt for every attempt: a retry needs a fresh nonce and
        // timestamp, since the server rejects a replayed pair.
        let json = try send(.post, "/session.json", sendsToken: false, opensSession: true, repeatable: true) {
            self.signedSessionBody(user: user)
        }
        let session = try parseSession(json, request: "POST /session.json")
        token = session.token
        return session
    }

    /// `GET /session.json`: the session `token` belongs to.
    package func currentSession() throws(QuickBloxError) -> QBSession {
        let json = try send(.get, "/session.json")
        return try parseSession(json, request: "GET /session.json")
    }

    /// `DELETE /session.json`; forgets the token.
    package func deleteSession() throws(QuickBloxError) {
        try send(.delete, "/session.json")
        token = nil
        tokenExpiresAt = nil
    }

    /// `GET /account_settings.json` with `QB-Account-Key` (no session needed).
    package func accountSettings(accountKey: String) throws(QuickBloxError) -> QBAccountSettings {
        let json = try send(.get, "/account_settings.json", extraHeaders: [HTTPHeader("QB-Account-Key", accountKey)],
                            sendsToken: false)
        guard let members = json.objectValue else {
            throw invalidResponse("GET /account_settings.json", "no settings object")
        }
        // `chat_url` is chatctl-sandbox's own: where its chat listens, which its `chat_endpoint`
        // (the chat domain, as the hosted service names it) cannot say (docs/protocol.md §1).
        return QBAccountSettings(apiEndpoint: json["api_endpoint"]?.stringValue,
                                 chatEndpoint: json["chat_url"]?.stringValue ?? json["chat_endpoint"]?.stringValue, raw: members)
    }

    // MARK: - Sign-up and log-in (user lookups are in +Users)

    /// `POST /users.json`. A 422 whose error `isLoginTaken` means "log in instead".
    /// `login` may be nil for an account identified by `email` alone.
    package func signUp(login: String?, password: String, fullName: String?, email: String?) throws(QuickBloxError) -> QBUser {
        var user: [String: JSONValue] = ["password": .string(password)]
        if let login { user["login"] = .string(login) }
        if let fullName { user["full_name"] = .string(fullName) }
        if let email { user["email"] = .string(email) }
        let body: JSONValue = ["user": .object(user)]
        // Repeatable: a sign-up the server did store answers 422 "taken" the second
        // time, which the login flow takes as "log in instead".
        let json = try send(.post, "/users.json", repeatable: true) { body }
        return try parseUser(json, request: "POST /users.json")
    }

    /// `POST /login.json`: turns the application session into a user session.
    package func logIn(_ credentials: UserCredentials) throws(QuickBloxError) -> QBUser {
        var body: [String: JSONValue] = ["password": .string(credentials.password)]
        switch credentials.identity {
        case .login(let login): body["login"] = .string(login)
        case .email(let email): body["email"] = .string(email)
        }
        let json = try send(.post, "/login.json", repeatable: true) { .object(body) }
        return try parseUser(json, request: "POST /login.json")
    }

    /// `DELETE /login.json`: back to an application session.
    package func logOut() throws(QuickBloxError) {
        try send(.delete, "/login.json")
    }

    // MARK: - The one request path every endpoint uses

    /// Sends one JSON request and returns the decoded body (`.null` when empty).
    /// `body` is called once per attempt. Internal, not private: the endpoint
    /// extensions in other files (dialogs, messages) use it.
    ///
    /// - A 429 is tried again (the server did nothing); 502, 503 and 504 only
    ///   when the request is `repeatable` (by default every method but POST: a
    ///   POST may have been carried out before the error, docs/protocol.md §4).
    /// - A 401 saying the session is gone is handed to `sessionRenewal`, and the
    ///   request repeated once with the new token (docs/protocol.md §2).
    /// - Each success tracks the token's expiry and tells `sessionRenewal`.
    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [],
              extraHeaders: [HTTPHeader] = [], sendsToken: Bool = true, opensSession: Bool = false,
              repeatable: Bool? = nil, body: () -> JSONValue? = { nil }) throws(QuickBloxError) -> JSONValue {
        let response = try exchange(method, path, query: query, extraHeaders: extraHeaders, sendsToken: sendsToken,
                                    opensSession: opensSession, repeatable: repeatable, body: body)
        return try decode(response.body, request: "\(method) \(apiEndpoint)\(path)")
    }

    /// `send` without decoding: the response itself. With `redirects`, a 301, 302,
    /// 303, 307 or 308 is an answer too (the blob download's, docs/protocol.md §8).
    func exchange(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [],
                  extraHeaders: [HTTPHeader] = [], sendsToken: Bool = true, opensSession: Bool = false,
                  repeatable: Bool? = nil, redirects: Bool = false,
                  body: () -> JSONValue? = { nil }) throws(QuickBloxError) -> HTTPResponse {
        let requestLine = "\(method) \(apiEndpoint)\(path)"
        var url = apiEndpoint + path
        if !query.isEmpty {
            url += "?" + FormEncoding.encode(query)
        }
        let retriesServerErrors = repeatable ?? (method != .post)
        var attempt = 0
        var renewed = false
        while true {
            attempt += 1
            var headers = [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("Accept", "application/json"),
                HTTPHeader("QuickBlox-REST-API-Version", "0.1.0"),
                HTTPHeader("QB-SDK", "chatctl"),
            ]
            let sentToken = sendsToken && token != nil
            if sentToken, let token { headers.append(HTTPHeader("QB-Token", token)) }
            headers += extraHeaders
            var bodyBytes: [UInt8] = []
            if let json = body() { bodyBytes = Self.encode(json) }
            let request = HTTPRequest(method: method, url: url, headers: headers, body: bodyBytes, timeout: requestTimeout)

            let response: HTTPResponse
            do {
                response = try transport.perform(request)
            } catch {
                // Connection failures are not retried: the user should hear at once.
                throw QuickBloxError(kind: .transport(error.kind), request: requestLine, reasons: [error.detail])
            }
            let succeeded = [200, 201, 202].contains(response.status)
                || (redirects && [301, 302, 303, 307, 308].contains(response.status))
            if sentToken || opensSession { noteTokenExpiry(from: response, succeeded: succeeded) }
            if succeeded {
                if sentToken, let expiry = tokenExpiresAt { sessionRenewal?.sessionExtended(until: expiry) }
                return response
            }
            if response.status == 401, sentToken, !renewed, let renewal = sessionRenewal {
                let error = QuickBloxError(status: response.status, request: requestLine, body: response.body)
                guard error.isSessionGone, let fresh = try renewal.renewSession(after: error) else { throw error }
                token = fresh.token
                tokenExpiresAt = fresh.expiresAt
                renewed = true
                attempt = 0
                continue
            }
            let retryAfter = response.header("Retry-After")
            if retryPolicy.retryableStatuses.contains(response.status), attempt < retryPolicy.maxAttempts,
               response.status == 429 || retriesServerErrors, retryPolicy.waitsFor(retryAfter: retryAfter) {
                retryPolicy.sleep(retryPolicy.delay(afterAttempt: attempt, retryAfter: retryAfter))
                continue
            }
            var error = QuickBloxError(status: response.status, request: requestLine, body: response.body)
            if let seconds = RetryPolicy.requestedWait(retryAfter), retryPolicy.retryableStatuses.contains(response.status) {
                error.reasons.append("the server asks to wait \(Int(seconds.rounded(.up))) s before trying again")
            }
            throw error
        }
    }

    private func noteTokenExpiry(from response: HTTPResponse, succeeded: Bool) {
        if let header = response.header("QB-Token-ExpirationDate"), let date = QBTimestamp.parse(header) {
            tokenExpiresAt = date
        } else if succeeded {
            tokenExpiresAt = Date().addingTimeInterval(Self.defaultTokenLifetime)
        }
    }

    private func decode(_ body: [UInt8], request: String) throws(QuickBloxError) -> JSONValue {
        if body.allSatisfy({ [0x20, 0x09, 0x0a, 0x0d].contains($0) }) { return .null }
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw QuickBloxError(kind: .invalidResponse, request: request, reasons: ["the body is not JSON"])
        }
    }

    /// The body bytes of a request (internal: the golden JSON tests write through it).
    static func encode(_ json: JSONValue) -> [UInt8] { Array(json.compactText.utf8) }

    // MARK: - Building and reading bodies

    private func signedSessionBody(user: UserCredentials?) -> JSONValue {
        let nonce = Int.random(in: 1...Int(Int32.max))
        let timestamp = Int(Date().timeIntervalSince1970)
        var parameters = [
            "application_id": String(credentials.applicationId),
            "auth_key": credentials.authKey,
            "nonce": String(nonce),
            "timestamp": String(timestamp),
        ]
        var body: [String: JSONValue] = [
            "application_id": .int(credentials.applicationId),
            "auth_key": .string(credentials.authKey),
            "nonce": .int(nonce),
            "timestamp": .int(timestamp),
        ]
        if let user {
            var userBody: [String: JSONValue] = ["password": .string(user.password)]
            switch user.identity {
            case .login(let login):
                parameters["user[login]"] = login
                userBody["login"] = .string(login)
            case .email(let email):
                parameters["user[email]"] = email
                userBody["email"] = .string(email)
            }
            parameters["user[password]"] = user.password
            body["user"] = .object(userBody)
        }
        let signer = RequestSigner(secret: credentials.authSecret, algorithm: credentials.signatureAlgorithm)
        // Never nil here: createSession checked `canSign`, and a loaded library stays loaded.
        body["signature"] = .string(signer.signature(for: parameters) ?? "")
        return .object(body)
    }

    private func parseSession(_ json: JSONValue, request: String) throws(QuickBloxError) -> QBSession {
        let session = json["session"] ?? json
        guard let token = session["token"]?.stringValue, !token.isEmpty else {
            throw invalidResponse(request, "no session token")
        }
        return QBSession(token: token,
                         applicationId: session["application_id"]?.intValue ?? credentials.applicationId,
                         userId: session["user_id"]?.intValue ?? 0,
                         expiresAt: tokenExpiresAt ?? Date().addingTimeInterval(Self.defaultTokenLifetime))
    }

    /// The user object, wrapped as `{"user":{…}}` or bare (internal: `+Users` uses it too).
    func parseUser(_ json: JSONValue, request: String) throws(QuickBloxError) -> QBUser {
        guard let user = QBUser(json: json["user"] ?? json) else {
            throw invalidResponse(request, "no \"user\" object with an id")
        }
        return user
    }

    /// A numbered page of what `item` reads (nil: an item it cannot use, which
    /// `unreadable` names); missing paging fields fall back to what was asked.
    func parseNumberedPage<Item: Sendable & Equatable>(_ json: JSONValue, request: String, page: Int, perPage: Int, unreadable: String,
                                 item: (JSONValue) -> Item?) throws(QuickBloxError) -> QBNumberedPage<Item> {
        guard let array = json["items"]?.arrayValue else {
            throw invalidResponse(request, "no \"items\" array")
        }
        var items: [Item] = []
        for element in array {
            guard let read = item(element) else { throw invalidResponse(request, unreadable) }
            items.append(read)
        }
        return QBNumberedPage(currentPage: json["current_page"]?.looseInt ?? page,
                              perPage: json["per_page"]?.looseInt ?? perPage,
                              totalEntries: json["total_entries"]?.looseInt ?? items.count,
                              items: items)
    }

    func invalidResponse(_ request: String, _ reason: String) -> QuickBloxError {
        let parts = request.split(separator: " ", maxSplits: 1)
        let line = parts.count == 2 ? "\(parts[0]) \(apiEndpoint)\(parts[1])" : request
        return QuickBloxError(kind: .invalidResponse, request: line, reasons: [reason])
    }
}

@available(*, unavailable)
extension QuickBloxClient: Sendable {}
