// Signed REST calls against a running chatctl-sandbox, over a plain socket (one request per
// connection), so tests of every module can create sessions and users without the client code.
import Foundation
internal import CCrypto
import HTTPTransport

/// One HTTP reply. Header names are lowercased.
package struct SandboxHTTPResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: String

    /// The body parsed as JSON (nil when empty or not JSON).
    package var json: Any? {
        guard let data = body.data(using: .utf8), !data.isEmpty else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}

/// How a session request is signed.
package enum SandboxSignatureAlgorithm: Sendable { case sha1, sha256 }

/// Building blocks of the QuickBlox session signature (docs/protocol.md §2).
package enum SandboxSigning {
    /// Every parameter but `signature` as raw `name=value`, sorted bytewise, joined with `&`.
    package static func stringToSign(_ parameters: [(String, String)]) -> String {
        parameters.filter { $0.0 != "signature" }
            .map { Array("\($0.0)=\($0.1)".utf8) }
            .sorted { $0.lexicographicallyPrecedes($1) }
            .map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: "&")
    }

    /// Lowercase hex HMAC (libcrypto `HMAC`).
    package static func hmacHex(_ algorithm: SandboxSignatureAlgorithm, key: String, message: String) -> String {
        let k = Array(key.utf8), m = Array(message.utf8)
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        _ = k.withUnsafeBytes { kb in
            m.withUnsafeBufferPointer { mb in
                out.withUnsafeMutableBufferPointer { ob in
                    HMAC(algorithm == .sha1 ? EVP_sha1() : EVP_sha256(), kb.baseAddress, Int32(kb.count),
                         mb.baseAddress, mb.count, ob.baseAddress, &length)
                }
            }
        }
        return out.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    /// `application_id`, `auth_key`, `nonce`, `timestamp`, `extra`, and a `signature` keyed with `secret`.
    package static func sessionParameters(applicationId: Int, authKey: String, secret: String,
                                         nonce: Int = Int.random(in: 1...2_000_000_000),
                                         timestamp: Int = Int(Date().timeIntervalSince1970),
                                         extra: [(String, String)] = [],
                                         algorithm: SandboxSignatureAlgorithm = .sha1) -> [(String, String)] {
        var parameters: [(String, String)] = [
            ("application_id", String(applicationId)), ("auth_key", authKey),
            ("nonce", String(nonce)), ("timestamp", String(timestamp)),
        ] + extra
        parameters.append(("signature", hmacHex(algorithm, key: secret, message: stringToSign(parameters))))
        return parameters
    }

    /// `application/x-www-form-urlencoded` with every reserved byte percent-encoded.
    package static func formEncode(_ parameters: [(String, String)]) -> String {
        FormEncoding.encode(parameters)
    }
}

/// Sends `bytes` to host:port and returns everything read until the peer closes or `timeout`
/// passes. `closedByPeer` says which.
package func rawTCPExchange(host: String, port: Int, bytes: [UInt8], timeout: Double = 10,
                           halfClose: Bool = false) throws -> (data: [UInt8], closedByPeer: Bool) {
    let connection = try TCPConnection(host: host, port: port)
    connection.send(bytes)
    if halfClose { connection.shutdownWrite() }
    return connection.readUntilClosed(timeout: timeout)
}

/// Parses `HTTP/1.1 200 OK\r\nName: value\r\n\r\nbody` (Content-Length honoured when present).
package func parseHTTPResponse(_ data: [UInt8]) throws -> SandboxHTTPResponse {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = (0...max(0, data.count - 4)).first(where: { data.count >= 4 && Array(data[$0..<$0 + 4]) == separator }) else {
        throw TestSupportError("no HTTP response head in \(data.count) bytes: \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    let head = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestSupportError("bad status line \(head[0])") }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Array(data[(end + 4)...])
    if let length = headers["content-length"].flatMap({ Int($0) }), body.count > length { body = Array(body.prefix(length)) }
    return SandboxHTTPResponse(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
}

extension SandboxProcess {
    /// Host and port of the REST endpoint (`http://127.0.0.1:PORT`).
    package var apiHostPort: (host: String, port: Int) {
        let rest = apiEndpoint.replacingOccurrences(of: "http://", with: "")
        let parts = rest.split(separator: ":")
        return (String(parts.first ?? "127.0.0.1"), Int(parts.last ?? "0") ?? 0)
    }

    package var applicationId: Int { config["appId"] as? Int ?? 0 }
    package var authKey: String { config["authKey"] as? String ?? "" }
    package var authSecret: String { config["authSecret"] as? String ?? "" }

    /// One HTTP exchange with a raw body. GET/DELETE put `query` in the URL.
    package func send(method: String, path: String, query: String? = nil, body: String? = nil,
                     contentType: String? = nil, token: String? = nil,
                     headers extra: [(String, String)] = [], timeout: Double = 10) throws -> SandboxHTTPResponse {
        let (host, port) = apiHostPort
        var target = path
        if let query, !query.isEmpty { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        if let token { head += "QB-Token: \(token)\r\n" }
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        let bodyBytes = Array((body ?? "").utf8)
        if body != nil || method == "POST" || method == "PUT" { head += "Content-Length: \(bodyBytes.count)\r\n" }
        head += "\r\n"
        let (data, _) = try rawTCPExchange(host: host, port: port, bytes: Array(head.utf8) + bodyBytes, timeout: timeout)
        return try parseHTTPResponse(data)
    }

    /// A request with form parameters: in the query for GET/DELETE, form-encoded body otherwise.
    package func request(method: String, path: String, params: [(String, String)] = [],
                        token: String? = nil) throws -> (status: Int, body: String) {
        let r = try response(method: method, path: path, params: params, token: token)
        return (r.status, r.body)
    }

    /// Like `request` but with headers and JSON access.
    package func response(method: String, path: String, params: [(String, String)] = [],
                         token: String? = nil) throws -> SandboxHTTPResponse {
        let encoded = SandboxSigning.formEncode(params)
        if method == "GET" || method == "DELETE" {
            return try send(method: method, path: path, query: encoded, token: token)
        }
        return try send(method: method, path: path, body: encoded,
                        contentType: "application/x-www-form-urlencoded", token: token)
    }

    /// Creates a signed session (a user session when `login`/`password` are given); returns its token.
    package func createSession(login: String? = nil, password: String? = nil,
                              algorithm: SandboxSignatureAlgorithm = .sha1) throws -> String {
        var extra: [(String, String)] = []
        if let login { extra.append(("user[login]", login)) }
        if let password { extra.append(("user[password]", password)) }
        let params = SandboxSigning.sessionParameters(applicationId: applicationId, authKey: authKey,
                                                       secret: authSecret, extra: extra, algorithm: algorithm)
        let r = try response(method: "POST", path: "/session.json", params: params)
        guard r.status == 201, let session = (r.json as? [String: Any])?["session"] as? [String: Any],
              let token = session["token"] as? String else {
            throw TestSupportError("POST /session.json answered \(r.status): \(r.body)")
        }
        return token
    }
}

/// Signs up `login` with an application session; returns the new user's id.
package func signUpUser(on sandbox: SandboxProcess, login: String, password: String) throws -> Int {
    let token = try sandbox.createSession()
    let r = try sandbox.response(method: "POST", path: "/users.json",
                                 params: [("user[login]", login), ("user[password]", password)], token: token)
    guard r.status == 201, let user = (r.json as? [String: Any])?["user"] as? [String: Any],
          let id = user["id"] as? Int else {
        throw TestSupportError("POST /users.json answered \(r.status): \(r.body)")
    }
    return id
}

extension SandboxProcess {
    /// `POST /chat/Dialog.json` as the session's user (type 3 private, 2 group, 1 public group);
    /// returns the dialog object (an existing private dialog of the pair comes back as is).
    package func createDialog(token: String, type: Int, occupantIds: [Int], name: String? = nil) throws -> [String: Any] {
        var params = [("type", String(type)), ("occupants_ids", occupantIds.map(String.init).joined(separator: ","))]
        if let name { params.append(("name", name)) }
        let r = try response(method: "POST", path: "/chat/Dialog.json", params: params, token: token)
        guard r.status == 200 || r.status == 201, let dialog = r.json as? [String: Any] else {
            throw TestSupportError("POST /chat/Dialog.json answered \(r.status): \(r.body)")
        }
        return dialog
    }

    /// `POST /chat/Message.json`: stores `text` in the dialog (and, with `sendToChat`, delivers it
    /// live over XMPP to the connected occupants); returns the message object.
    package func sendMessage(token: String, dialogId: String, text: String, sendToChat: Bool = false,
                            extra: [(String, String)] = []) throws -> [String: Any] {
        var params = [("chat_dialog_id", dialogId), ("message", text)] + extra
        if sendToChat { params.append(("send_to_chat", "1")) }
        let r = try response(method: "POST", path: "/chat/Message.json", params: params, token: token)
        guard r.status == 201, let message = r.json as? [String: Any] else {
            throw TestSupportError("POST /chat/Message.json answered \(r.status): \(r.body)")
        }
        return message
    }
}

extension SandboxProcess {
    /// `GET /chat/Dialog.json`: the ids of the session user's dialogs.
    package func dialogIDs(token: String) throws -> [String] {
        let r = try response(method: "GET", path: "/chat/Dialog.json", token: token)
        guard r.status == 200, let items = (r.json as? [String: Any])?["items"] as? [[String: Any]] else {
            throw TestSupportError("GET /chat/Dialog.json answered \(r.status): \(r.body)")
        }
        return items.compactMap { $0["_id"] as? String }
    }

    /// `GET /chat/Message.json`: the texts stored in a dialog, oldest first (up to 1000),
    /// without marking them read.
    /// Every message's text, oldest first, a page of 1,000 at a time (`messageTexts` is one page).
    package func allMessageTexts(token: String, dialogID: String) throws -> [String] {
        var texts: [String] = []
        while true {
            let r = try response(method: "GET", path: "/chat/Message.json",
                                 params: [("chat_dialog_id", dialogID), ("limit", "1000"), ("skip", String(texts.count)), ("mark_as_read", "0")],
                                 token: token)
            guard r.status == 200, let items = (r.json as? [String: Any])?["items"] as? [[String: Any]] else {
                throw TestSupportError("GET /chat/Message.json answered \(r.status): \(r.body)")
            }
            texts += items.map { $0["message"] as? String ?? "" }
            if items.count < 1000 { return texts }
        }
    }

    package func messageTexts(token: String, dialogID: String) throws -> [String] {
        let r = try response(method: "GET", path: "/chat/Message.json",
                             params: [("chat_dialog_id", dialogID), ("limit", "1000"), ("mark_as_read", "0")], token: token)
        guard r.status == 200, let items = (r.json as? [String: Any])?["items"] as? [[String: Any]] else {
            throw TestSupportError("GET /chat/Message.json answered \(r.status): \(r.body)")
        }
        return items.compactMap { $0["message"] as? String }
    }
}
