// The WebSocket port's connections that have not upgraded yet, capped per address as every
// port's connections not yet of use are (docs/protocol.md §7): past the cap the oldest is
// shut down, not the newcomer. Once upgraded, a WebSocket counts as a chat stream not yet
// authenticated, under the chat server's own cap.
internal import CWebSockets
#if canImport(Glibc)
import Glibc
#endif
import SandboxHTTP
import SandboxLogging

/// On the WebSocket thread only, as every libwebsockets callback.
final class WaitingUpgrades {
    private var idle: IdleConnections<OpaquePointer>
    /// Each waiting connection's socket (`struct lws*` → descriptor), to shut it down.
    private var sockets: [OpaquePointer: Int32] = [:]
    private let log: SandboxLog

    init(perAddress: Int, overall: Int, log: SandboxLog) {
        idle = IdleConnections(perAddress: max(1, perAddress), overall: max(1, overall))
        self.log = log
    }

    /// A connection was accepted: it waits for its upgrade, as the youngest.
    func accepted(_ wsi: OpaquePointer) {
        let socket = Int32(lws_get_socket_fd(wsi))
        guard socket >= 0 else { return }
        let address = PeerAddress.host(ofSocket: socket) ?? "?"
        sockets[wsi] = socket
        let evicted = idle.becameIdle(wsi, address: address)
        if let dropped = idle.evictionsToLog {
            log.log(.warning, "ws: \(address) has \(idle.perAddress) connections not upgraded yet; dropping the oldest for a new one (\(dropped) so far)")
        }
        for oldest in evicted {
            // libwebsockets then reads the end of the stream and closes it.
            if let socket = sockets.removeValue(forKey: oldest) { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// It upgraded, or it is gone (before its descriptor can be reused: same thread).
    func left(_ wsi: OpaquePointer) {
        idle.remove(wsi)
        sockets[wsi] = nil
    }
}

@available(*, unavailable) extension WaitingUpgrades: Sendable {}
