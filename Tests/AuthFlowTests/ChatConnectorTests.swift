#if canImport(Glibc)
import Glibc
#endif
import Testing
import AuthFlow
import ClientConfiguration
import QuickBloxAPI
import XMPPTransport

@Suite struct ChatConnectorTests {
    static func environment() -> [String?] {
        ["SSL_CERT_FILE", "SSL_CERT_DIR"].map { (name: String) in getenv(name).map { String(cString: $0) } }
    }

    /// The CA is the connection's (`xmpp_conn_set_cafile`), never the process's:
    /// libcurl and any other TLS in the process keep their own trust.
    @Test(arguments: ["/nonexistent/chatctl-test-ca.pem", nil])
    func connectingLeavesTheProcessEnvironmentAlone(caFile: String?) {
        let before = Self.environment()
        // Port 0 fails before any socket is opened, after everything a connect sets up.
        let config = ClientConfig(path: "/etc/chatctl/config.json",
                                  credentials: AppCredentials(applicationId: 7, authKey: "k", authSecret: "s"),
                                  apiEndpoint: "https://api.example.com",
                                  chatEndpoint: ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: 0),
                                  chatDomain: "chat.example.com", caFile: caFile)
        let connector = ChatConnector(config: config)
        #expect(throws: XMPPError.self) { try connector.connect(userId: 42, secret: "token") }
        #expect(Self.environment() == before)
    }
}
