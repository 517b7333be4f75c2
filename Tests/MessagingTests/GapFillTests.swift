import Foundation
import Testing
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
@testable import Messaging

/// Answers history requests from a list of messages, honouring limit and skip.
final class HistoryServer: HTTPTransporting {
    let messages: [String]
    var requests = 0
    init(count: Int) {
        messages = (0..<count).map { i in
            #"{"_id":"\#(String(format: "%024x", 0x5e00_0000 + i))","chat_dialog_id":"d1","message":"m\#(i)","sender_id":2,"date_sent":\#(1_700_000_000 + i)}"#
        }
    }
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        requests += 1
        let query = request.url.split(separator: "?").last.map(String.init) ?? ""
        func value(_ name: String) -> Int {
            query.split(separator: "&").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
        }
        let page = messages.dropFirst(value("skip")).prefix(value("limit"))
        let body = #"{"skip":\#(value("skip")),"limit":\#(value("limit")),"items":[\#(page.joined(separator: ","))]}"#
        return HTTPResponse(status: 200, body: Array(body.utf8))
    }
}

@Suite struct GapFillTests {
    @Test func aGapLongerThanOnePageIsFilledWhole() throws {
        let temporary = try TemporaryDirectory()
        let dir = temporary.path
        let server = HistoryServer(count: 150)
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: server)
        api.retryPolicy = .never
        let service = MessagingService(api: api, cache: try ChatCache(path: dir + "/cache.sqlite"), me: 1)
        let missed = try service.newMessages(dialogID: "d1", since: 1_600_000_000)
        #expect(missed.map(\.text) == (0..<150).map { "m\($0)" })
        #expect(server.requests == 2)
        // Seen once: asking again finds nothing new.
        #expect(try service.newMessages(dialogID: "d1", since: 1_600_000_000).isEmpty)
    }
}
