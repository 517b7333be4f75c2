// libFuzzer target: the client's decoding of REST answers (docs/protocol.md §2–8),
// through QuickBloxClient itself over a transport that answers the input. The
// first byte picks the status and the call, the second the headers; the rest is
// the body. Every outcome must be a value or a QuickBloxError, never a crash.
import FuzzSupport
import HTTPTransport
import QuickBloxAPI

private final class AnsweringTransport: HTTPTransporting {
    var response = HTTPResponse(status: 200)
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse { response }
}

private let statuses = [200, 201, 202, 401, 403, 404, 422, 429, 500, 503]

runFuzzer { input in
    guard input.count >= 2 else { return }
    let selector = Int(input[0]), headerBits = Int(input[1])
    let body = Array(input.dropFirst(2))
    var headers: [HTTPHeader] = []
    if headerBits & 1 != 0 { headers.append(HTTPHeader("QB-Token-ExpirationDate", String(decoding: body.prefix(40), as: UTF8.self))) }
    if headerBits & 2 != 0 { headers.append(HTTPHeader("Retry-After", String(decoding: body.prefix(8), as: UTF8.self))) }
    if headerBits & 4 != 0 { headers.append(HTTPHeader("Location", String(decoding: body.prefix(200), as: UTF8.self))) }
    if headerBits & 8 != 0 { headers.append(HTTPHeader("Content-Type", "application/json")) }

    let transport = AnsweringTransport()
    transport.response = HTTPResponse(status: statuses[selector % statuses.count], headers: headers, body: body)
    let client = QuickBloxClient(apiEndpoint: "https://api.example",
                                 credentials: AppCredentials(applicationId: 7, authKey: "k", authSecret: "s"), transport: transport)
    client.retryPolicy = .never
    client.token = "token"
    let credentials = UserCredentials(identity: .login("ann"), password: "password")
    do {
        switch (selector / statuses.count) % 20 {
        case 0: _ = try client.createSession(user: credentials)
        case 1: _ = try client.currentSession()
        case 2: _ = try client.accountSettings(accountKey: "key")
        case 3: _ = try client.signUp(login: "ann", password: "password", fullName: nil, email: nil)
        case 4: _ = try client.logIn(credentials)
        case 5: _ = try client.user(id: 1)
        case 6: _ = try client.users(ids: [1, 2])
        case 7: _ = try client.users(fullName: "Ann")
        case 8: _ = try client.dialogs()
        case 9: _ = try client.allDialogs(maxPages: 3)
        case 10: _ = try client.createDialog(type: .group, name: "g", occupantIDs: [2])
        case 11: _ = try client.deleteDialogs(ids: ["a", "b"])
        case 12: _ = try client.messages(MessageQuery(dialogId: "d"))
        case 13: _ = try client.sendMessage(dialogId: "d", text: "hi")
        case 14: _ = try client.message(id: "m", dialogId: "d")
        case 15: _ = try client.unreadCounts(dialogIds: ["d"])
        case 16: _ = try client.deleteMessages(ids: ["m"])
        case 17: _ = try client.createBlob(name: "f.txt", contentType: "text/plain")
        case 18: _ = try client.blob(id: 1)
        default: _ = try client.blobLocation(uid: "u")
        }
    } catch {
        _ = "\(error)"
    }
}
