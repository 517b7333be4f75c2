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

/// The one catch-all stanza handler of a connection: every stanza reaches `ChatSessionState`
/// by one path, so none is handled twice or lost between handlers.
let stanzaCallback: xmpp_handler = { _, stanza, userdata in
    guard let stanza, let connection = callbackConnection(userdata) else { return 1 }
    connection.handleStanza(StanzaElement(stropheStanza: stanza))
    return 1  // keep the handler
}

/// Stanzas and TLS records go out as small writes: without TCP_NODELAY,
/// Nagle's algorithm meets the server's delayed ACK and each exchange
/// can stall ~40 ms (measured: the end of a login waited 41 ms).
/// It also notes the socket, for the `ConnectWatchdog`.
let noDelaySocketCallback: xmpp_sockopt_callback = { conn, socket in
    guard let fd = socket?.assumingMemoryBound(to: Int32.self).pointee else { return 0 }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    if let conn { ConnectSockets.record(conn, fd) }
    return 0
}

/// Each connection's socket, from the sockopt callback until the owner sees it closed,
/// so that the `ConnectWatchdog` can hang up on a handshake that libstrophe never ends.
/// The lock serialises that hang-up with the owner forgetting the socket.
enum ConnectSockets {
    private static let byConnection = Mutex<[UInt: Int32]>([:])
    /// A connection's address as a number, which may cross threads.
    static func key(_ conn: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(conn))) }

    static func record(_ conn: OpaquePointer, _ fd: Int32) {
        byConnection.withLock { $0[key(conn)] = fd }
    }

    static func clear(_ conn: OpaquePointer) {
        byConnection.withLock { _ = $0.removeValue(forKey: key(conn)) }
    }

    /// Shuts the reading side of the connection's socket if it is still connected to
    /// `port`; true when it did. Reads then see end of file, so the handshake fails; the
    /// writing side stays, so nothing raises SIGPIPE in a process that has not ignored it.
    static func hangUp(connection key: UInt, port: Int) -> Bool {
        byConnection.withLock { table in
            guard let fd = table[key] else { return false }
            // The fd number is only trusted while it still names the peer we dialled.
            var address = sockaddr_in6()
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
            }
            // sin_port and sin6_port sit at the same offset.
            guard named, Int(UInt16(bigEndian: address.sin6_port)) == port else { return false }
            return shutdown(fd, Int32(SHUT_RD)) == 0
        }
    }
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
