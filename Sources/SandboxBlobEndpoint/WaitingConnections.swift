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

    /// Connections dropped for newer ones since a connection came without.
    private var droppedInARow = 0

    /// Counts `dropped` more (none: a burst is over); returns the running count when a log
    /// line is due (the first of each hundred).
    mutating func countDropped(_ dropped: Int) -> Int? {
        guard dropped > 0 else {
            droppedInARow = 0
            return nil
        }
        let before = droppedInARow
        droppedInARow += dropped
        return before / 100 != droppedInARow / 100 || before == 0 ? droppedInARow : nil
    }

    mutating func busy(_ key: Int) { idle.remove(key) }

    mutating func close(_ key: Int) {
        idle.remove(key)
        sockets[key] = nil
        addresses[key] = nil
    }
}
