// One TCP connection on the loop: a libevent bufferevent, OpenSSL-filtered once TLS starts.
// Every bufferevent call of the XMPP streams (and the load driver's) lives here.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif
import SandboxLogging

/// Owns one bufferevent (after STARTTLS, the TLS filter, which owns the socket's). Its
/// callbacks run `onReadable` and `onEvent` on the loop thread; freeing it closes the socket.
package final class SocketConnection {
    /// What a connection reports besides readable input.
    package enum Event: Equatable {
        /// A client's connection is up, or a TLS handshake (either side) has finished.
        case connected
        /// The connection is over: the peer closed it (`endOfFile`) or it failed. `tlsError` is
        /// OpenSSL's reason when TLS failed; `systemError` errno's text at that moment.
        case ended(endOfFile: Bool, failed: Bool, tlsError: String?, systemError: String)
    }

    private let loop: EventLoop
    private var bufferEvent: OpaquePointer    // struct bufferevent*
    /// The input is waiting: take it with `read(into:)` or `withInput`.
    package var onReadable: () -> Void = {}
    package var onEvent: (Event) -> Void = { _ in }

    /// A server's accepted `socket` (owned from now on, closed on failure too).
    package init(loop: EventLoop, acceptedSocket socket: Int32) throws(SandboxFailure) {
        self.loop = loop
        guard let bev = bufferevent_socket_new(loop.base, socket, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            evutil_closesocket(socket)
            throw SandboxFailure("bufferevent_socket_new failed")
        }
        bufferEvent = bev
        install()
    }

    /// A client's connection to `host`:`port` (IPv4), under way; `.connected` says when it is up.
    package init(loop: EventLoop, connectingTo host: String, port: Int) throws(SandboxFailure) {
        self.loop = loop
        guard let bev = bufferevent_socket_new(loop.base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            throw SandboxFailure("bufferevent_socket_new failed")
        }
        bufferEvent = bev
        install()
        guard bufferevent_socket_connect_hostname(bev, nil, AF_INET, host, Int32(port)) == 0 else {
            throw SandboxFailure("cannot connect to \(host):\(port)")
        }
    }

    deinit { bufferevent_free(bufferEvent) }

    private func install() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(bufferEvent, { _, context in
            let connection = Unmanaged<SocketConnection>.fromOpaque(context!).takeUnretainedValue()
            withExtendedLifetime(connection) { connection.onReadable() }
        }, nil, { _, events, context in
            let connection = Unmanaged<SocketConnection>.fromOpaque(context!).takeUnretainedValue()
            withExtendedLifetime(connection) { connection.report(events) }
        }, me)
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
    }

    private func report(_ events: Int16) {
        if events & Int16(BEV_EVENT_CONNECTED) != 0 { return onEvent(.connected) }
        guard events & Int16(BEV_EVENT_ERROR | BEV_EVENT_EOF | BEV_EVENT_TIMEOUT) != 0 else { return }
        let systemError = String(cString: strerror(errno))
        onEvent(.ended(endOfFile: events & Int16(BEV_EVENT_EOF) != 0, failed: events & Int16(BEV_EVENT_ERROR) != 0,
                       tlsError: tlsError, systemError: systemError))
    }

    /// OpenSSL's reason for the last failure on this connection, if TLS failed.
    private var tlsError: String? {
        let code = bufferevent_get_openssl_error(bufferEvent)
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return String(cString: reason)
    }

    /// Stanzas go out as several small writes (and TLS records): without TCP_NODELAY, Nagle's
    /// algorithm meets the peer's delayed ACK and stalls each exchange by ~40 ms.
    package func sendWithoutDelay() {
        let socket = bufferevent_getfd(bufferEvent)
        guard socket >= 0 else { return }
        var one: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    // MARK: input

    /// Takes all the input into `buffer` (grown when too small, else reused); returns how many
    /// bytes. All of it: nothing may stay behind for a TLS filter.
    package func read(into buffer: inout [UInt8]) -> Int {
        let input = bufferevent_get_input(bufferEvent)
        let length = evbuffer_get_length(input)
        guard length > 0 else { return 0 }
        if buffer.count < length { buffer = [UInt8](repeating: 0, count: length) }
        _ = buffer.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, length) }
        return length
    }

    /// Shows all the input to `body` in place, then drops it.
    package func withInput(_ body: (UnsafeRawBufferPointer) -> Void) {
        let input = bufferevent_get_input(bufferEvent)
        let length = evbuffer_get_length(input)
        guard length > 0, let bytes = evbuffer_pullup(input, -1) else { return }
        body(UnsafeRawBufferPointer(start: bytes, count: length))
        evbuffer_drain(input, length)
    }

    /// No more input is read (the output still drains).
    package func stopReading() { bufferevent_disable(bufferEvent, Int16(EV_READ)) }

    /// Neither input nor output any more.
    package func stop() { bufferevent_disable(bufferEvent, Int16(EV_READ | EV_WRITE)) }

    // MARK: output

    package func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
    }

    /// Bytes not yet handed to the kernel (the TLS filter's and the socket's).
    package var pendingOutput: Int {
        var total = evbuffer_get_length(bufferevent_get_output(bufferEvent))
        if let underlying = bufferevent_get_underlying(bufferEvent) { total += evbuffer_get_length(bufferevent_get_output(underlying)) }
        return total
    }

    /// Pushes queued output to the socket now (through OpenSSL when filtered), for when the
    /// loop may not run again (shutdown).
    package func flushNow() {
        var target = bufferEvent
        if let underlying = bufferevent_get_underlying(bufferEvent) {
            _ = bufferevent_flush(bufferEvent, Int16(EV_WRITE), BEV_FLUSH)
            target = underlying
        }
        let fd = bufferevent_getfd(target)
        guard fd >= 0, let output = bufferevent_get_output(target) else { return }
        // A bufferevent keeps the start of its output frozen so only its own
        // write callback drains it; thaw it just for this one non-blocking write.
        evbuffer_unfreeze(output, 1)
        _ = evbuffer_write(output, fd)
        evbuffer_freeze(output, 1)
    }

    // MARK: TLS

    /// Whether TLS is on (an OpenSSL filter sits on the socket's bufferevent).
    package var isTLS: Bool { bufferevent_get_underlying(bufferEvent) != nil }

    /// The server's side of TLS from here on, with `identity`'s certificate; false when
    /// OpenSSL cannot start it. A client that just closes the socket after its stream ends
    /// is an end of file, not an error (a dirty shutdown is allowed).
    package func startTLS(as identity: TLSIdentity) -> Bool {
        guard let filtered = filter(identity.makeSSL(), BUFFEREVENT_SSL_ACCEPTING) else { return false }
        bufferevent_openssl_set_allow_dirty_shutdown(filtered, 1)
        return true
    }

    /// The client's side of TLS from here on, checked by `context`; false when OpenSSL cannot start it.
    package func startTLS(as context: TLSClientContext) -> Bool {
        filter(context.makeSSL(), BUFFEREVENT_SSL_CONNECTING) != nil
    }

    /// Puts an OpenSSL filter with `ssl` on the socket's bufferevent; the filter then owns
    /// (and frees) both. Nil, with `ssl` freed, when it cannot be made.
    private func filter(_ ssl: OpaquePointer?, _ state: bufferevent_ssl_state) -> OpaquePointer? {
        guard let ssl else { return nil }
        guard let filtered = bufferevent_openssl_filter_new(loop.base, bufferEvent, ssl, state,
                                                            Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            SSL_free(ssl)
            return nil
        }
        bufferEvent = filtered
        install()
        return filtered
    }

    /// TLS's close_notify (RFC 8446 §6.1), once all the plaintext is through TLS; false when
    /// there is no TLS or output still waits (then ask again later).
    package func sendCloseNotify() -> Bool {
        guard bufferevent_get_underlying(bufferEvent) != nil, let ssl = bufferevent_openssl_get_ssl(bufferEvent) else { return false }
        _ = bufferevent_flush(bufferEvent, Int16(EV_WRITE), BEV_FLUSH)
        guard evbuffer_get_length(bufferevent_get_output(bufferEvent)) == 0 else { return false }
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        return true
    }
}

@available(*, unavailable) extension SocketConnection: Sendable {}
