import SandboxHTTP

/// The storage endpoint's open connections (by libmicrohttpd's connection, as a number) and
/// which of them wait for a request, oldest first per address (`IdleConnections`).
struct WaitingConnections: Sendable {
    private var idle: IdleConnections<Int>
    private var sockets: [Int: Int32] = [:]
    private var addresses: [Int: String] = [:]

    init(perAddress: Int, overall: Int) {
        idle = IdleConnections(perAddress: max(1, perAddress), overall: max(1, overall))
    }

    /// A new connection on `socket`, its peer's address looked up once.
    mutating func open(_ key: Int, socket: Int32) {
        sockets[key] = socket
        addresses[key] = PeerAddress.host(ofSocket: socket) ?? "?"
    }

    func address(of key: Int) -> String? { addresses[key] }

    /// `key` waits for a request as the youngest; returns the sockets of those to drop.
    mutating func waits(_ key: Int) -> [Int32] {
        guard let address = addresses[key] else { return [] }
        return idle.becameIdle(key, address: address).compactMap { sockets[$0] }
    }

    /// After `waits`: the flood's running count when it is worth a log line (IdleConnections).
    var droppedToLog: Int? { idle.evictionsToLog }

    mutating func busy(_ key: Int) { idle.remove(key) }

    mutating func close(_ key: Int) {
        idle.remove(key)
        sockets[key] = nil
        addresses[key] = nil
    }
}
