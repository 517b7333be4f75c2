internal import CStrophe
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

// The C trampolines: libstrophe calls these (all on the thread inside
// `xmpp_run_once`); they turn C arguments into Swift ones and call the
// `XMPPConnection` behind the userdata. No captures, so they are C function pointers.

/// The connection behind a callback's userdata (its `callbackTarget`), or nil once
/// it is being deinitialized.
private func callbackConnection(_ userdata: UnsafeMutableRawPointer?) -> XMPPConnection? {
    guard let target = userdata?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee else { return nil }
    return Unmanaged<XMPPConnection>.fromOpaque(target).takeUnretainedValue()
}

let stropheLogCallback: xmpp_log_handler = { userdata, level, area, message in
    guard let connection = callbackConnection(userdata) else { return }
    if level == XMPP_LEVEL_DEBUG, !connection.wantsDebugLog { return }
    connection.handleLog(area: area.map { String(cString: $0) } ?? "", message: message.map { String(cString: $0) } ?? "",
                         isError: level == XMPP_LEVEL_ERROR)
}

let connectionCallback: xmpp_conn_handler = { conn, event, error, streamError, userdata in
    guard let connection = callbackConnection(userdata) else { return }
    switch event {
    case XMPP_CONN_CONNECT:
        connection.sessionEstablished(on: conn)
    case XMPP_CONN_DISCONNECT, XMPP_CONN_FAIL:
        let condition = streamError.map {
            ConnectEvidence.streamErrorCondition(in: $0.pointee.stanza.map(StanzaElement.init(stropheStanza:)),
                                                 errorType: Int($0.pointee.type.rawValue))
        }
        connection.streamEnded(on: conn, socketError: error, streamErrorCondition: condition)
    default:
        break
    }
}

/// The one catch-all stanza handler of a connection (house rule 5).
let stanzaCallback: xmpp_handler = { _, stanza, userdata in
    guard let stanza, let connection = callbackConnection(userdata) else { return 1 }
    connection.handleStanza(StanzaElement(stropheStanza: stanza))
    return 1  // keep the handler
}

/// Stanzas and TLS records go out as small writes: without TCP_NODELAY,
/// Nagle's algorithm meets the server's delayed ACK and each exchange
/// can stall ~40 ms (measured: the end of a login waited 41 ms).
let noDelaySocketCallback: xmpp_sockopt_callback = { _, socket in
    guard let fd = socket?.assumingMemoryBound(to: Int32.self).pointee else { return 0 }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return 0
}

/// The certfail handler has no userdata, so rejections are parked by connection
/// address until the disconnect callback collects them. Returning 0 always: an
/// unverifiable certificate fails the connect, never gets accepted.
let certificateFailureCallback: xmpp_certfail_handler = { cert, errorMessage in
    if let cert, let conn = xmpp_tlscert_get_conn(cert) {
        CertificateRejections.record(conn, errorMessage.map { String(cString: $0) } ?? "certificate not trusted")
    }
    return 0
}

enum CertificateRejections {
    static let byConnection = Mutex<[UInt: String]>([:])
    static func record(_ conn: OpaquePointer, _ message: String) {
        byConnection.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(conn)))] = message }
    }
    static func take(_ conn: OpaquePointer) -> String? {
        byConnection.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(conn)))) }
    }
    static func clear(_ conn: OpaquePointer) { _ = take(conn) }
}
