import Testing
@testable import XMPPTransport

/// Internal helpers: the log redaction (secrets) and the failure classification.
@Suite("libstrophe log handling")
struct LogAndEvidenceTests {
    static let password = "s3cret-Pa55"

    @Test(arguments: [
        "SENT: <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>ADEwMDEtNzdAbG9jYWxob3N0AHMzY3JldC1QYTU1</auth>",
        "SENT: <response xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>Yz1iaXdzLHI9</response>",
        "RECV: <success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>dj1ybUY5cHFWOFM3c3VBb1pXamE0ZEpSa0ZzS1E9</success>",
        "SENT: <iq type='set' id='_xmpp_auth1'><query xmlns='jabber:iq:auth'><password>x</password></query></iq>",
    ])
    func saslPayloadLinesNeverPassThrough(_ line: String) {
        let shown = StropheLogRedactor.sanitize(area: "xmpp", message: line, secrets: [Self.password])
        #expect(shown.map { !$0.contains("ADEw") && !$0.contains("Yz1i") && !$0.contains("dj1y") && !$0.contains("<password") } ?? true)
    }

    @Test func literalSecretIsRedactedAnywhere() throws {
        let shown = try #require(StropheLogRedactor.sanitize(area: "conn", message: "weird \(Self.password) here", secrets: [Self.password]))
        #expect(!shown.contains(Self.password))
        #expect(shown.contains("[redacted]"))
    }

    @Test func ordinaryLinesPassUnchanged() {
        #expect(StropheLogRedactor.sanitize(area: "xmpp", message: "RECV: <presence/>", secrets: [Self.password]) == "xmpp xmpp: RECV: <presence/>")
    }

    @Test func evidenceClassification() {
        var e = ConnectEvidence()
        #expect(e.failureKind == .cannotConnect)
        e.observe(area: "xmpp", message: "connection successful", isError: false)
        #expect(e.failureKind == .disconnected)
        var sasl = e
        sasl.observe(area: "xmpp", message: "SASL PLAIN auth failed", isError: false)
        #expect(sasl.failureKind == .notAuthorized)
        var plain = e
        plain.observe(area: "xmpp", message: "TLS is not supported, but set as mandatory for this connection", isError: true)
        #expect(plain.failureKind == .plaintextRefused)
        var cert = e
        cert.certificateRejection = "self-signed certificate"
        cert.socketError = 104
        #expect(cert.failureKind == .tlsFailed)
        #expect(cert.detail.contains("self-signed"))
        var stream = e
        stream.streamErrorCondition = "conflict"
        #expect(stream.failureKind == .streamError("conflict"))
        var verify = e
        verify.observe(area: "tls", message: "Certificate verification FAILED, result=X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT(18)", isError: false)
        #expect(verify.failureKind == .tlsFailed)
        #expect(verify.detail == "certificate verification failed: X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT(18)")
        var tls = e
        tls.observe(area: "tls", message: "error:0A000086:SSL routines::certificate verify failed", isError: true)
        #expect(tls.failureKind == .tlsFailed)
    }

    /// What libstrophe logs when an xmpps:// server speaks plain XML: the cue for STARTTLS (docs/protocol.md §7).
    @Test func plainTextWhereTLSWasExpectedIsTold() {
        var e = ConnectEvidence()
        e.observe(area: "xmpp", message: "connection successful", isError: false)
        e.observe(area: "tls", message: "error=SSL_ERROR_SSL(1) errno=0 lasterror=0", isError: false)
        #expect(!e.plainTextInsteadOfTLS)
        e.observe(area: "tls", message: "error:0A00010B:SSL routines::wrong version number", isError: false)
        e.observe(area: "conn", message: "Couldn't start TLS! error -3 tls_error 1", isError: false)
        #expect(e.plainTextInsteadOfTLS)
        #expect(e.failureKind == .tlsFailed)
        #expect(e.detail == "the server answered in plain text, not TLS")
        var other = ConnectEvidence()
        other.observe(area: "tls", message: "error:0A000126:SSL routines::unexpected eof while reading", isError: false)
        #expect(!other.plainTextInsteadOfTLS, "a server that hangs up is not a STARTTLS server")
        // ... it is a connection cut short (exit 75), not a certificate to trust (exit 1).
        other.observe(area: "conn", message: "Couldn't start TLS! error -3 tls_error 1", isError: false)
        other.tcpConnected = true
        #expect(other.failureKind == .disconnected)
        #expect(other.detail == "it hung up during the TLS handshake")
    }

    @Test func aStalledHandshakeIsATimeout() {
        var e = ConnectEvidence()
        e.observe(area: "xmpp", message: "connection successful", isError: false)
        e.observe(area: "tls", message: "error:0A000126:SSL routines::unexpected eof while reading", isError: false)
        e.handshakeStalledAfter = 1.5
        #expect(e.failureKind == .timedOut)
        #expect(e.detail == "TLS handshake not finished within 1.5 s (TCP connected)")
    }

    @Test func errorDescriptionNamesEndpointAndKind() {
        let err = XMPPError(kind: .notAuthorized, endpoint: "xmpp://chat.example.com:5222", detail: "SASL authentication failed")
        #expect(err.description.contains("xmpp://chat.example.com:5222"))
        #expect(err.description.contains("not-authorized"))
    }

    @Test func streamErrorConditionComesFromTheElementElseFromLibstrophesType() throws {
        let streams = "urn:ietf:params:xml:ns:xmpp-streams"
        let error = StanzaElement("error", children: [
            StanzaElement("text", namespace: streams),
            StanzaElement("system-shutdown", namespace: streams),
        ])
        #expect(ConnectEvidence.streamErrorCondition(in: error, errorType: 2) == "system-shutdown")
        #expect(ConnectEvidence.streamErrorCondition(in: StanzaElement("error"), errorType: 2) == "conflict")
        #expect(ConnectEvidence.streamErrorCondition(in: nil, errorType: 12) == "not-authorized")
        #expect(ConnectEvidence.streamErrorCondition(in: nil, errorType: 99) == "undefined-condition")
        let parsed = try #require(StanzaElement(parsingWithStrophe: "<error><conflict xmlns='\(streams)'/></error>"))
        #expect(ConnectEvidence.streamErrorCondition(in: parsed, errorType: 19) == "conflict")
    }
}
