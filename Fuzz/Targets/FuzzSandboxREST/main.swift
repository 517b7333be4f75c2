// libFuzzer target: the sandbox's REST request decoding (query, form and JSON bodies,
// bracketed names, filters, paths) and every route behind it, over an in-memory
// database. An input is a small HTTP request:
//
//     GET /chat/Message.json?chat_dialog_id=$D&limit=5
//     Content-Type: application/json
//
//     {"read":1}
//
// `$A` and `$B` stand for two users' tokens (a request with no QB-Token header is
// ann's), `$D` for their private dialog's id. The database lives across inputs
// (a user's PBKDF2 costs milliseconds): a crash found is replayed on a fresh one.
import FuzzSupport
import SandboxHTTP
import SandboxJSON
import SandboxREST
import SandboxStorage


final class RESTFixture {
    /// The routes hold it unowned, as the sandbox does.
    let api: SandboxAPI
    let router: RESTRouter
    let substitutions: [(String, String)]

    init() throws {
        let database = try SandboxDatabase(path: nil, tokenTTL: 7200, now: { 1_700_000_000 })
        api = SandboxAPI(database: database, credentials: ApplicationCredentials(applicationId: 7, authKey: "k", authSecret: "s"),
                             chatDomain: "localhost", now: { 1_700_000_000 })
        router = api.makeRouter()
        let ann = try database.insertUser(NewUser(login: "ann", password: "password-ann"))
        let bob = try database.insertUser(NewUser(login: "bob", password: "password-bob"))
        let annToken = try database.createSession(applicationId: 7, userId: ann.id, nonce: 1, timestamp: 1).token
        let bobToken = try database.createSession(applicationId: 7, userId: bob.id, nonce: 2, timestamp: 1).token
        let created = router.handle(try RESTRequest(method: .post, path: "/chat/Dialog.json",
                                                     headers: ["QB-Token": annToken, "Content-Type": "application/x-www-form-urlencoded"],
                                                     query: nil, body: Array("type=3&occupants_ids=\(bob.id)".utf8)))
        guard case .string(let dialogID)? = created.body?["_id"] else { fatalError("the fixture's dialog was not created: \(created.status)") }
        substitutions = [("$A", annToken), ("$B", bobToken), ("$D", dialogID)]
    }

    func substitute(_ text: String) -> String {
        guard text.contains("$") else { return text }
        var out = text
        for (key, value) in substitutions { out = out.replacingOccurrences(of: key, with: value) }
        return out
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

let fixture: RESTFixture
do { fixture = try RESTFixture() } catch { fatalError("the REST fixture: \(error)") }

runFuzzer { input in
    let bytes = Array(input)
    // Head (request line and headers) up to the first empty line; the rest is the body.
    var headEnd = bytes.count, bodyStart = bytes.count
    for i in bytes.indices where bytes[i] == 0x0A {
        if i + 1 < bytes.count, bytes[i + 1] == 0x0A { headEnd = i; bodyStart = i + 2; break }
    }
    let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
    var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return }
    let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1)
    guard requestLine.count == 2 else { return }
    let target = fixture.substitute(String(requestLine[1]))
    let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var headers: [String: String] = [:]
    for line in lines {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        headers[String(parts[0])] = fixture.substitute(String(parts[1].drop { $0 == " " }))
    }
    if !headers.keys.contains(where: { $0.lowercased() == "qb-token" }) { headers["QB-Token"] = fixture.substitute("$A") }
    var body = Array(bytes[bodyStart...])
    if body.contains(UInt8(ascii: "$")) { body = Array(fixture.substitute(String(decoding: body, as: UTF8.self)).utf8) }
    let request: RESTRequest
    do {
        request = try RESTRequest(method: HTTPRequest.Method(name: String(requestLine[0])), path: String(pathAndQuery[0]), headers: headers,
                                  query: pathAndQuery.count > 1 ? String(pathAndQuery[1]) : nil, body: body)
    } catch {
        return
    }
    let response = fixture.router.handle(request)
    precondition((200..<600).contains(response.status), "status \(response.status)")
    // A 500 is a storage failure, which an in-memory database never has; the blob
    // routes answer 500 here by design (no storage endpoint runs in process).
    precondition(response.status != 500 || pathAndQuery[0].hasPrefix("/blobs"), "500 for a request: \(response.body?.serialized ?? "")")
    _ = response.body?.serialized
}
