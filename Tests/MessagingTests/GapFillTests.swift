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
    /// `sender`: who sent message `i` (user 2 unless told).
    init(count: Int, sender: (Int) -> Int = { _ in 2 }) {
        messages = (0..<count).map { i in
            #"{"_id":"\#(String(format: "%024x", 0x5e00_0000 + i))","chat_dialog_id":"d1","message":"m\#(i)","sender_id":\#(sender(i)),"date_sent":\#(1_700_000_000 + i)}"#
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

    /// The gap fill of a stream: every page is cached, only others' messages are kept (the
    /// stream's own, most of them, are let go page by page), with the newest date seen.
    @Test func aGapFillKeepsOnlyWhatOthersSaidAndTellsHowFarItSaw() throws {
        let temporary = try TemporaryDirectory()
        let server = HistoryServer(count: 250) { $0 % 50 == 7 ? 2 : 1 }
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: server)
        api.retryPolicy = .never
        let cache = try ChatCache(path: temporary.path + "/cache.sqlite")
        let service = MessagingService(api: api, cache: cache, me: 1)
        let missed = try service.missedMessages(dialogID: "d1", since: 1_600_000_000, excludedSender: 1)
        #expect(missed.messages.map(\.text) == ["m7", "m57", "m107", "m157", "m207"])
        #expect(missed.newest == 1_700_000_249)
        #expect(server.requests == 3)
        #expect(try cache.message(id: String(format: "%024x", 0x5e00_0000 + 100))?.text == "m100", "our own are cached all the same")
    }
}
