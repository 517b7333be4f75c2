/// What libstrophe told us while a connect attempt ran (callbacks and log lines),
/// reduced to one failure kind. libstrophe 0.12 reports most failures only as
/// "disconnected with errno N" plus a log line, so the log is part of the evidence.
struct ConnectEvidence: Sendable, Equatable {
    /// "connection successful": TCP is up, so later failures are not `.cannotConnect`.
    var tcpConnected = false
    /// The certificate verification error OpenSSL gave (certfail handler or log line).
    var certificateRejection: String?
    /// A TLS handshake/IO error that is not a verification failure.
    var tlsError: String?
    /// "TLS is not supported, but set as mandatory for this connection".
    var tlsNotOffered = false
    /// "SASL PLAIN auth failed" / "Cannot authenticate with known methods".
    var saslFailed = false
    /// The condition element of a `<stream:error>`.
    var streamErrorCondition: String?
    /// errno from the disconnect callback (0 when closed cleanly).
    var socketError: Int32 = 0
    /// libstrophe's own "Connection attempt timed out." (TCP connect timeout).
    var libraryTimedOut = false
    /// OpenSSL found no TLS record where the handshake expected one ("wrong version
    /// number"): an `xmpps://` server that speaks plain XML first, i.e. STARTTLS.
    var plainTextInsteadOfTLS = false
    /// The server hung up in the middle of the TLS handshake (OpenSSL: "unexpected eof
    /// while reading"): a network or server fault, not a certificate to trust.
    var handshakeCutByPeer = false
    /// The connect deadline passed inside libstrophe's TLS handshake, which does not
    /// return by itself; the watchdog hung up to end it (seconds allowed).
    var handshakeStalledAfter: Double?

    /// Folds one libstrophe log line into the evidence.
    mutating func observe(area: String, message: String, isError: Bool) {
        if message.hasPrefix("connection successful") { tcpConnected = true }
        else if message.hasPrefix("Certificate verification FAILED") {
            // libstrophe 0.12.2 logs this and fails the handshake without calling the
            // certfail handler ("Certificate was not presented by peer"), so the log is it.
            if certificateRejection == nil {
                let result = message.firstRange(of: "result=").map { String(message[$0.upperBound...]) }
                certificateRejection = result ?? message
            }
        }
        else if message.hasPrefix("TLS is not supported, but set as mandatory") { tlsNotOffered = true }
        else if message.hasPrefix("Connection attempt timed out") { libraryTimedOut = true }
        else if message.hasPrefix("Cannot authenticate with known methods")
                    || (message.hasPrefix("SASL ") && message.hasSuffix(" auth failed")) { saslFailed = true }
        else if (area == "tls" && isError) || message.hasPrefix("Couldn't start TLS")
                    || message.hasPrefix("Unrecoverable TLS error") {
            if tlsError == nil { tlsError = message }
        }
        // OpenSSL's reason arrives as a debug line of area "tls" (libstrophe's _tls_log_error).
        if area == "tls" && message.hasSuffix(":wrong version number") { plainTextInsteadOfTLS = true }
        if area == "tls" && message.contains("unexpected eof while reading") { handshakeCutByPeer = true }
    }

    /// The failure kind for a connect attempt that ended without a session.
    var failureKind: XMPPError.Kind {
        if handshakeStalledAfter != nil { return .timedOut }
        if certificateRejection != nil { return .tlsFailed }
        if tlsNotOffered { return .plaintextRefused }
        if saslFailed { return .notAuthorized }
        if let condition = streamErrorCondition {
            return condition == "not-authorized" ? .notAuthorized : .streamError(condition)
        }
        if handshakeCutByPeer { return .disconnected }
        if tlsError != nil { return .tlsFailed }
        if libraryTimedOut { return tcpConnected ? .timedOut : .cannotConnect }
        if !tcpConnected { return .cannotConnect }
        return .disconnected
    }

    /// Words for `XMPPError.detail`; never contains credentials (none ever reach here).
    var detail: String {
        if let handshakeStalledAfter {
            return "TLS handshake not finished within \(XMPPConnection.format(handshakeStalledAfter)) s (TCP connected)"
        }
        if plainTextInsteadOfTLS { return "the server answered in plain text, not TLS" }
        if let certificateRejection { return "certificate verification failed: \(certificateRejection)" }
        if handshakeCutByPeer { return "it hung up during the TLS handshake" }
        if tlsNotOffered { return "server does not offer STARTTLS" }
        if saslFailed { return "SASL authentication failed" }
        if let streamErrorCondition { return "stream error <\(streamErrorCondition)/>" }
        if let tlsError { return tlsError }
        if socketError != 0 { return "socket error \(socketError) (\(ConnectEvidence.errnoName(socketError)))" }
        return ""
    }

    /// The condition of a `<stream:error>`: its child in the streams namespace,
    /// else libstrophe's `xmpp_error_type_t` (`errorType`, its raw value) by name.
    static func streamErrorCondition(in element: StanzaElement?, errorType: Int) -> String {
        for child in element?.children ?? [] where child.namespace == streamsNamespace && child.name != "text" {
            return child.name
        }
        return streamErrorNames.indices.contains(errorType) ? streamErrorNames[errorType] : "undefined-condition"
    }

    static let streamsNamespace = "urn:ietf:params:xml:ns:xmpp-streams"

    /// `xmpp_error_type_t` in declaration order.
    static let streamErrorNames = [
        "bad-format", "bad-namespace-prefix", "conflict", "connection-timeout", "host-gone",
        "host-unknown", "improper-addressing", "internal-server-error", "invalid-from", "invalid-id",
        "invalid-namespace", "invalid-xml", "not-authorized", "policy-violation",
        "remote-connection-failed", "resource-constraint", "restricted-xml", "see-other-host",
        "system-shutdown", "undefined-condition", "unsupported-encoding", "unsupported-stanza-type",
        "unsupported-version", "not-well-formed",
    ]

    static func errnoName(_ code: Int32) -> String {
        switch code {
        case 111: return "connection refused"
        case 110: return "timed out"
        case 113: return "no route to host"
        case 101: return "network unreachable"
        case 104: return "connection reset by peer"
        case 32: return "broken pipe"
        default: return "errno \(code)"
        }
    }
}
