// The client's address alone, without its port: what wrong passwords are counted against
// (docs/protocol.md §4).
extension XMPPClientConnection {
    /// "127.0.0.1:5222" → "127.0.0.1", "::1:5222" → "::1"; a WebSocket's peer is already
    /// the address alone (libwebsockets' `lws_get_peer_simple`).
    var peerAddress: String {
        guard transport != .webSocket, let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }
}
