import Testing
@testable import SandboxServer

/// Which `--host` keeps the published default credentials (docs/protocol.md §1).
@Suite struct LoopbackHostTests {
    @Test(arguments: [("127.0.0.1", true), ("127.8.9.10", true), ("localhost", true), ("LOCALHOST", true),
                      ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
                      ("0.0.0.0", false), ("::", false), ("192.168.1.20", false), ("128.0.0.1", false),
                      ("::ffff:10.0.0.1", false), ("example.org", false), ("localhost.example.org", false)])
    func loopbackOnly(host: String, expected: Bool) {
        var options = SandboxOptions()
        options.host = host
        #expect(options.listensOnLoopbackOnly == expected)
    }
}
