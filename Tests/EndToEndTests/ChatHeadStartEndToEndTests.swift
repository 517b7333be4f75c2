import Foundation
import Testing
import TestSupport

/// docs/protocol.md §7: `chatctl login` sets its chat connection up (TCP, TLS) while the
/// REST calls run, and authenticates it once the log-in has given it the user's id and token;
/// a login whose REST part fails drops it at once.
@Suite(.serialized) struct ChatHeadStartEndToEndTests {
    @Test func theChatHandshakeIsUnderWayBeforeTheRESTLogInAnswers() throws {
        let backend = try ProxiedSandbox()
        // Each REST exchange now takes over a second: the TLS handshake comes long before the end.
        backend.rest.mode = .delay(milliseconds: 400)
        let cli = try ChatctlRunner(configPath: backend.configPath)
        let login = try cli.background(["login", "--login", uniqueLogin("early")],
                                       environment: ["CHATCTL_PASSWORD": ChatUser.password])
        _ = try backend.chat.wait(for: "the chat TLS ClientHello", timeout: 20) { $0.clientHellos >= 1 }
        let restAnswersByThen = backend.rest.counters.bytesDownstream
        let result = login.finish(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasSuffix("; chat connected.\n"))
        #expect(restAnswersByThen < backend.rest.counters.bytesDownstream, "TLS began before the REST answers were all in")
        #expect(backend.chat.counters.connectionsAccepted == 1, "one chat connection, authenticated once the token came")
    }

    @Test func aRESTFailureDropsTheChatConnectionAtOnce() throws {
        let backend = try ProxiedSandbox()
        let cli = try ChatctlRunner(configPath: backend.configPath)
        let login = uniqueLogin("drop")
        #expect(try cli.login(login, password: ChatUser.password, extra: ["--no-chat"]).status == 0)
        // A chat server that never answers would hold a chat connect for the whole timeout.
        backend.chat.mode = .blackHole
        let started = Date()
        let wrong = try cli.login(login, password: "wrong-pass-99", environment: ["CHATCTL_NETWORK_TIMEOUT": "20"], timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(wrong.status == 4, "stderr: \(wrong.stderr)")
        #expect(wrong.stderr.contains("Unauthorized"), "stderr: \(wrong.stderr)")
        #expect(elapsed < 10, "took \(elapsed) s: the chat connect was not dropped at once")
        #expect(backend.chat.counters.connectionsAccepted >= 1, "the chat connection had begun")
    }
}
