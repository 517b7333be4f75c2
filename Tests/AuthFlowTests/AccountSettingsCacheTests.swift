import Foundation
import Diagnostics
import Testing
import ClientConfiguration
import HTTPTransport
import QuickBloxAPI
import TestSupport
@testable import AuthFlow

/// docs/protocol.md §1: `GET /account_settings.json` once, then the state directory's copy.
@Suite struct AccountSettingsCacheTests {
    let directory: TemporaryDirectory
    let cache: AccountSettingsCache
    let lookup = EndpointLookup(directory: "http://127.0.0.1:9", accountKey: "acct-key", applicationId: 7)

    init() throws {
        directory = try TemporaryDirectory()
        cache = AccountSettingsCache(directory: directory.path + "/state")
    }

    @Test func asksOnceWithTheAccountKeyThenUsesTheCopy() throws {
        let transport = ScriptedTransport([reply(200, #"{"api_endpoint":"https://api.example.com","chat_endpoint":"chat.example.com"}"#)])
        let first = try cache.endpoints(for: lookup, transport: transport)
        #expect(first.api == "https://api.example.com" && first.chat == "xmpps://chat.example.com:5223")
        let second = try cache.endpoints(for: lookup, transport: transport)
        #expect(second == first)
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].url == "http://127.0.0.1:9/account_settings.json")
        #expect(transport.requests[0].header("QB-Account-Key") == "acct-key")
        #expect(transport.requests[0].header("QB-Token") == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.path(for: lookup))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // Another account key, or another place to ask, is another copy.
        var other = lookup
        other.accountKey = "other-key"
        #expect(cache.path(for: other) != cache.path(for: lookup))
    }

    /// A copy on a user's disk from before the client had one JSON writer still answers, and
    /// the writer now writes the same bytes the encoder did then (keys sorted, `/` as it is).
    @Test func aCopyWrittenByTheEarlierEncoderStillAnswers() throws {
        let earlier = #"{"api_endpoint":"https://api.example.com","chat_endpoint":"xmpps://chat.example.com:5223","looked_up_at":1700000000}"#
        try PrivateFiles.writeAtomically(cache.path(for: lookup), Array(earlier.utf8))
        let transport = ScriptedTransport([])
        let found = try cache.endpoints(for: lookup, transport: transport)
        #expect(found.api == "https://api.example.com" && found.chat == "xmpps://chat.example.com:5223")
        #expect(transport.requests.isEmpty)

        try PrivateFiles.remove(cache.path(for: lookup))
        _ = try cache.endpoints(for: lookup, transport: ScriptedTransport([reply(200, #"{"api_endpoint":"https://api.example.com","chat_endpoint":"chat.example.com"}"#)]))
        let written = String(decoding: try #require(PrivateFiles.read(cache.path(for: lookup))), as: UTF8.self)
        #expect(written.hasPrefix(#"{"api_endpoint":"https://api.example.com","chat_endpoint":"xmpps://chat.example.com:5223","looked_up_at":"#))
    }

    @Test func aSpoiledCopyIsAskedAgain() throws {
        try PrivateFiles.writeAtomically(cache.path(for: lookup), Array("{not json".utf8))
        let transport = ScriptedTransport([reply(200, #"{"api_endpoint":"https://a.example.com","chat_endpoint":"c.example.com"}"#)])
        #expect(try cache.endpoints(for: lookup, transport: transport).api == "https://a.example.com")
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        (ScriptedTransport.Reply.status(200, "<html>oops</html>"), "unexpected answer"),
        (.status(200, #"{"account_id":1}"#), "named no usable api_endpoint and chat_endpoint"),
        (.status(200, #"{"api_endpoint":"https://a.example.com"}"#), "named no usable api_endpoint and chat_endpoint"),
        (.status(200, "[1,2]"), "unexpected answer"),
        (.status(404, #"{"errors":["The resource wasn't found"]}"#), "The resource wasn't found (404 from GET http://127.0.0.1:9/account_settings.json)"),
        (.status(401, #"{"errors":["Account key is required"]}"#), "Account key is required (401"),
    ])
    func aBadAnswerIsOneLineAndNothingIsCached(answer: ScriptedTransport.Reply, expected: String) throws {
        let error = try #require(throws: Failure.self) {
            try cache.endpoints(for: lookup, transport: ScriptedTransport([answer]))
        }
        #expect(error.kind == .failure, "exit 1, not 'log in again'")
        #expect(error.message.hasPrefix("look up the endpoints: "))
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.description.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: lookup)))
    }

    @Test func anUnreachableDirectoryIsTemporary() throws {
        let error = try #require(throws: Failure.self) {
            try cache.endpoints(for: lookup, transport: ScriptedTransport([.failure(.cannotConnect, detail: "refused")]))
        }
        #expect(error.kind == .temporary)
    }
}
