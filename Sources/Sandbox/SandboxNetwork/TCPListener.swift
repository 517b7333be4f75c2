// A TCP listener on the loop (libevent's evconnlistener): every evconnlistener call lives here.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif
import SandboxLogging

/// Accepts connections on one address, handing each socket (and the peer, as
/// `host:port`) to `accept` on the loop thread. Stops listening when freed.
package final class TCPListener {
    private let loop: EventLoop
    private var listener: OpaquePointer?   // struct evconnlistener*
    private let accept: (_ socket: Int32, _ peer: String) -> Void
    private let failed: (_ reason: String) -> Void
    /// The port actually bound (after asking for 0).
    package private(set) var boundPort = 0

    /// `failed`: an accept went wrong (EMFILE and friends); the listener goes on listening.
    /// Throws the system's reason when the address cannot be listened on.
    package init(loop: EventLoop, address: ListeningAddress, accept: @escaping (_ socket: Int32, _ peer: String) -> Void,
                 failed: @escaping (_ reason: String) -> Void) throws(SandboxFailure) {
        self.loop = loop
        self.accept = accept
        self.failed = failed
        let flags = UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let listener = address.withSocketAddress { socketAddress, length in
            evconnlistener_new_bind(loop.base, { _, socket, address, length, context in
                let listener = Unmanaged<TCPListener>.fromOpaque(context!).takeUnretainedValue()
                withExtendedLifetime(listener) { listener.accept(socket, TCPListener.describe(address, length)) }
            }, me, flags, -1, socketAddress, Int32(length))
        }
        guard let listener else { throw SandboxFailure(String(cString: strerror(errno))) }
        self.listener = listener
        evconnlistener_set_error_cb(listener) { _, context in
            let listener = Unmanaged<TCPListener>.fromOpaque(context!).takeUnretainedValue()
            listener.failed(String(cString: strerror(errno)))
        }
        boundPort = ListeningAddress.boundPort(of: evconnlistener_get_fd(listener)) ?? address.port
    }

    deinit { close() }

    /// Stops listening (the connections accepted stay). Idempotent.
    package func close() {
        if let listener { evconnlistener_free(listener) }
        listener = nil
    }

    private static func describe(_ address: UnsafeMutablePointer<sockaddr>?, _ length: Int32) -> String {
        guard let address else { return "?" }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        guard getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), &service, socklen_t(service.count),
                          NI_NUMERICHOST | NI_NUMERICSERV) == 0 else { return "?" }
        func text(_ chars: [CChar]) -> String { String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return text(host) + ":" + text(service)
    }
}

@available(*, unavailable) extension TCPListener: Sendable {}
