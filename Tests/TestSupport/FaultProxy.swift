import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on loopback that a test puts between chatctl and a server (REST, XMPP,
/// storage) and drives: it passes bytes, delays or throttles them, resets connections
/// after some bytes, swallows them (a black hole), cuts a TLS handshake short, or answers
/// HTTP requests itself (a 503 storm). The mode may change at any moment from any thread;
/// counters let a test wait for a signal (a connection, bytes, a reset), never a sleep.
///
/// One thread runs a poll(2) loop over every socket; `stop()` ends it, closes every socket
/// and returns once the thread is gone, so no thread or port outlives the proxy.
package final class FaultProxy: Sendable {
    package enum Mode: Sendable, Equatable {
        /// Forward both ways as they come.
        case pass
        /// Hold every chunk this long before it goes on (both ways).
        case delay(milliseconds: Int)
        /// At most this many bytes a second, each way, on each connection.
        case throttle(bytesPerSecond: Int)
        /// Every connection, once this many bytes (both ways, counted from when the mode
        /// was set or the connection opened, whichever is later) went through, is reset
        /// (RST to both ends). `once`: only the first such reset, then the mode is `.pass`.
        case resetAfter(bytes: Int, once: Bool)
        /// Accept, read and drop; never forward, never answer.
        case blackHole
        /// Forward what the client sends; read and drop what the server answers (it gets
        /// the messages, the client never hears that it did: no acks).
        case dropFromServer
        /// Forward until the client's TLS ClientHello went upstream, then close both ends
        /// as soon as the server answers it, so the handshake never completes.
        case closeMidTLSHandshake
        /// Answer each HTTP request (head and `Content-Length` body) with `response` and
        /// close; `forward` also sends the request upstream (its answer is dropped), as a
        /// server that did the work and then failed to say so.
        case answerHTTP(response: [UInt8], forward: Bool)
    }

    package struct Counters: Sendable, Equatable {
        package var connectionsAccepted = 0
        /// Connections open now.
        package var open = 0
        /// Bytes written to the server and to the client.
        package var bytesUpstream = 0
        package var bytesDownstream = 0
        /// Connections ended by `.resetAfter`, `.closeMidTLSHandshake` or `resetAll()`.
        package var resets = 0
        /// HTTP requests answered by `.answerHTTP`.
        package var answered = 0
        /// TLS ClientHellos forwarded (reads from the client starting 0x16 0x03: TLS 1.3's
        /// only client handshake record in the clear).
        package var clientHellos = 0
    }

    private struct Shared {
        var mode: Mode
        var generation = 0
        var counters = Counters()
        var resetAllRequested = 0
        var stopping = false
    }

    package let port: Int
    package let host: String
    package let upstreamHost: String
    package let upstreamPort: Int
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let shared: Mutex<Shared>
    private let finished = Flag()

    /// Listens on `host` (any 127.x address; another name for loopback than the server's
    /// makes a certificate name mismatch) at a port the kernel picks.
    package init(upstreamHost: String = "127.0.0.1", upstreamPort: Int, host: String = "127.0.0.1", mode: Mode = .pass) throws {
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.host = host
        shared = Mutex(Shared(mode: mode))
        (listenFD, port) = try Self.listen(on: host)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Glibc.close(listenFD)
            throw TestSupportError("pipe2: \(String(cString: strerror(errno)))")
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let thread = Thread { [self] in self.run() }
        thread.name = "FaultProxy :\(port)"
        thread.start()
    }

    /// Convenience: `http://host:port`, `xmpp://host:port` and so on.
    package func url(scheme: String) -> String { "\(scheme)://\(host):\(port)" }

    package var mode: Mode {
        get { shared.withLock { $0.mode } }
        set {
            shared.withLock { $0.mode = newValue; $0.generation += 1 }
            wake()
        }
    }

    package var counters: Counters { shared.withLock { $0.counters } }

    /// Resets every connection open now (the others are untouched).
    package func resetAll() {
        shared.withLock { $0.resetAllRequested += 1 }
        wake()
    }

    /// Waits until `condition` holds for the counters; throws naming `what` after `timeout`.
    @discardableResult
    package func wait(for what: String, timeout: Double = 20, _ condition: (Counters) -> Bool) throws -> Counters {
        var seen = Counters()
        try waitUntil("\(what) (proxy :\(port) counters: \(counters))", timeout: timeout) {
            seen = counters
            return condition(seen)
        }
        return seen
    }

    /// Ends the loop, closes every socket and waits for the thread. Idempotent.
    package func stop() {
        let first = shared.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { wake() }
        _ = finished.wait(timeout: 10)
    }

    deinit {
        stop()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    // MARK: - The loop (its thread alone touches the connections)

    private final class Link {
        let client: Int32
        var upstream: Int32 = -1
        /// Chunks to write, with the monotonic time from which each may go.
        var toUpstream: [(due: Double, bytes: [UInt8])] = []
        var toClient: [(due: Double, bytes: [UInt8])] = []
        var clientEOF = false, upstreamEOF = false
        var shutUpstream = false, shutClient = false
        var generation: Int
        var bytesThisGeneration = 0
        var sawClientHello = false
        var requestBuffer: [UInt8] = []
        /// Throttle allowance per direction (bytes), refilled with time.
        var allowanceUp = 0.0, allowanceDown = 0.0
        var lastRefill: Double
        var closed = false
        init(client: Int32, generation: Int, now: Double) {
            self.client = client; self.generation = generation; lastRefill = now
        }
    }

    private func run() {
        var links: [Link] = []
        var seenResetAll = shared.withLock { $0.resetAllRequested }
        while true {
            let (mode, generation, stopping, resetAll) = shared.withLock { ($0.mode, $0.generation, $0.stopping, $0.resetAllRequested) }
            if stopping { break }
            let now = Self.now()
            if resetAll != seenResetAll {
                seenResetAll = resetAll
                for link in links { reset(link) }
            }
            for link in links where !link.closed {
                if link.generation != generation { link.generation = generation; link.bytesThisGeneration = 0 }
                flush(link, mode: mode, now: now)
            }
            links.removeAll { $0.closed }

            // What to wait for: the listener, the wake pipe, readable ends (while the
            // other side's queue is short), writable ends with something due.
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var owners: [(Link, Bool)] = []   // (link, isClient) per fd after the first two
            var timeout = 1000.0
            for link in links {
                var clientEvents: Int16 = 0, upstreamEvents: Int16 = 0
                if !link.clientEOF && queued(link.toUpstream) < 1 << 20 { clientEvents |= Int16(POLLIN) }
                if link.upstream >= 0 && !link.upstreamEOF && queued(link.toClient) < 1 << 20 { upstreamEvents |= Int16(POLLIN) }
                if let first = link.toClient.first {
                    if first.due <= now { clientEvents |= Int16(POLLOUT) } else { timeout = min(timeout, (first.due - now) * 1000) }
                }
                if let first = link.toUpstream.first, link.upstream >= 0 {
                    if first.due <= now { upstreamEvents |= Int16(POLLOUT) } else { timeout = min(timeout, (first.due - now) * 1000) }
                }
                if case .throttle = mode, !(link.toClient.isEmpty && link.toUpstream.isEmpty) { timeout = min(timeout, 20) }
                fds.append(pollfd(fd: link.client, events: clientEvents, revents: 0)); owners.append((link, true))
                if link.upstream >= 0 {
                    fds.append(pollfd(fd: link.upstream, events: upstreamEvents, revents: 0)); owners.append((link, false))
                }
            }
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, timeout.rounded(.up))))
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wakeRead, &sink, sink.count) > 0 {}
            }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptOne(into: &links, mode: mode, generation: generation) }
            let readNow = Self.now()
            for (index, (link, isClient)) in owners.enumerated() where !link.closed {
                let events = fds[index + 2].revents
                guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
                read(link, fromClient: isClient, mode: mode, now: readNow)
            }
        }
        for link in links { close(link) }
        Glibc.close(listenFD)
        shared.withLock { $0.counters.open = 0 }
        finished.set()
    }

    private func acceptOne(into links: inout [Link], mode: Mode, generation: Int) {
        let fd = accept(listenFD, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let link = Link(client: fd, generation: generation, now: Self.now())
        shared.withLock { $0.counters.connectionsAccepted += 1; $0.counters.open += 1 }
        if mode != .blackHole {
            link.upstream = Self.connect(host: upstreamHost, port: upstreamPort)
            if link.upstream < 0 { close(link); return }
        }
        links.append(link)
    }

    private func read(_ link: Link, fromClient: Bool, mode: Mode, now: Double) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let fd = fromClient ? link.client : link.upstream
        let n = recv(fd, &buffer, buffer.count, 0)
        if n < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            close(link)   // reset by a peer: end the other side too
            return
        }
        if n == 0 {
            if fromClient { link.clientEOF = true } else { link.upstreamEOF = true }
            if link.clientEOF && (link.upstreamEOF || link.upstream < 0) && link.toClient.isEmpty && link.toUpstream.isEmpty { close(link) }
            return
        }
        let bytes = Array(buffer[0..<n])
        let clientHello = fromClient && bytes.count > 2 && bytes[0] == 0x16 && bytes[1] == 0x03
        if clientHello && mode != .blackHole { shared.withLock { $0.counters.clientHellos += 1 } }
        switch mode {
        case .blackHole:
            return
        case .dropFromServer:
            if !fromClient { return }
        case .answerHTTP(let response, let forward):
            guard fromClient else { return }   // the server's answer is dropped
            link.requestBuffer += bytes
            guard let length = Self.completeRequestLength(link.requestBuffer) else { return }
            if forward { link.toUpstream.append((now, Array(link.requestBuffer.prefix(length)))) }
            link.requestBuffer.removeFirst(length)
            link.toClient.append((now, response))
            link.clientEOF = true   // one answer per connection, then close
            shared.withLock { $0.counters.answered += 1 }
            return
        case .closeMidTLSHandshake:
            if clientHello {
                link.sawClientHello = true
            } else if !fromClient && link.sawClientHello {
                reset(link, rst: false)
                return
            }
        default:
            break
        }
        let delay: Double = if case .delay(let ms) = mode { Double(ms) / 1000 } else { 0 }
        if fromClient { link.toUpstream.append((now + delay, bytes)) } else { link.toClient.append((now + delay, bytes)) }
    }

    /// Writes what is due on both directions, applying throttles and resets.
    private func flush(_ link: Link, mode: Mode, now: Double) {
        if case .throttle(let rate) = mode {
            let elapsed = now - link.lastRefill
            link.lastRefill = now
            let cap = Double(max(rate, 1)) / 10 + 1   // at most a tenth of a second's worth at once
            link.allowanceUp = min(cap, link.allowanceUp + elapsed * Double(rate))
            link.allowanceDown = min(cap, link.allowanceDown + elapsed * Double(rate))
        }
        for toClient in [false, true] {
            let fd = toClient ? link.client : link.upstream
            guard fd >= 0, !link.closed else { continue }
            while let first = toClient ? link.toClient.first : link.toUpstream.first, first.due <= now {
                var chunk = first.bytes
                if case .throttle = mode {
                    let allowance = Int(toClient ? link.allowanceDown : link.allowanceUp)
                    if allowance <= 0 { break }
                    chunk = Array(chunk.prefix(allowance))
                }
                if case .resetAfter(let limit, let once) = mode {
                    let room = limit - link.bytesThisGeneration
                    if room <= 0 {
                        resetAtLimit(link, once: once, mode: mode)
                        return
                    }
                    chunk = Array(chunk.prefix(room))
                }
                let sent = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 {
                    if errno == EAGAIN || errno == EINTR { break }
                    close(link)
                    return
                }
                link.bytesThisGeneration += sent
                if case .throttle = mode {
                    if toClient { link.allowanceDown -= Double(sent) } else { link.allowanceUp -= Double(sent) }
                }
                shared.withLock {
                    if toClient { $0.counters.bytesDownstream += sent } else { $0.counters.bytesUpstream += sent }
                }
                if toClient {
                    if sent == first.bytes.count { link.toClient.removeFirst() } else { link.toClient[0].bytes.removeFirst(sent) }
                } else {
                    if sent == first.bytes.count { link.toUpstream.removeFirst() } else { link.toUpstream[0].bytes.removeFirst(sent) }
                }
                if sent < chunk.count || chunk.count < first.bytes.count { break }
            }
            if case .resetAfter(let limit, let once) = mode, link.bytesThisGeneration >= limit, !link.closed {
                resetAtLimit(link, once: once, mode: mode)
                return
            }
        }
        // An end of file is passed on once everything before it went.
        if link.clientEOF, link.toUpstream.isEmpty, link.upstream >= 0, !link.shutUpstream {
            link.shutUpstream = true
            shutdown(link.upstream, Int32(SHUT_WR))
        }
        if link.upstreamEOF, link.toClient.isEmpty, !link.shutClient {
            link.shutClient = true
            shutdown(link.client, Int32(SHUT_WR))
        }
        if case .answerHTTP = mode, link.clientEOF, link.toClient.isEmpty, link.toUpstream.isEmpty, !link.closed {
            close(link)
            return
        }
        if link.clientEOF && (link.upstreamEOF || link.upstream < 0) && link.toClient.isEmpty && link.toUpstream.isEmpty && !link.closed {
            close(link)
        }
    }

    /// A `.resetAfter` limit reached: with `once`, back to `.pass` first, so that a test
    /// that sees the reset (or its count) also sees the mode it left.
    private func resetAtLimit(_ link: Link, once: Bool, mode: Mode) {
        if once { shared.withLock { if $0.mode == mode { $0.mode = .pass; $0.generation += 1 } } }
        reset(link)
    }

    private func queued(_ queue: [(due: Double, bytes: [UInt8])]) -> Int { queue.reduce(0) { $0 + $1.bytes.count } }

    /// Ends both sides: with `rst`, SO_LINGER 0 makes close() send a reset.
    private func reset(_ link: Link, rst: Bool = true) {
        guard !link.closed else { return }
        if rst {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            for fd in [link.client, link.upstream] where fd >= 0 {
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
        }
        shared.withLock { $0.counters.resets += 1 }
        close(link)
    }

    private func close(_ link: Link) {
        guard !link.closed else { return }
        link.closed = true
        Glibc.close(link.client)
        if link.upstream >= 0 { Glibc.close(link.upstream) }
        link.toClient = []; link.toUpstream = []
        shared.withLock { $0.counters.open -= 1 }
    }

    // MARK: - Sockets

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func address(_ host: String, _ port: Int) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    private static func listen(on host: String) throws -> (Int32, Int) {
        guard var address = address(host, 0) else { throw TestSupportError("bad IPv4 address \(host)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && Glibc.listen(fd, 64) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard ok else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TestSupportError("bind/listen on \(host):0: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A blocking connect (loopback answers at once), then non-blocking; -1 if refused.
    private static func connect(host: String, port: Int) -> Int32 {
        guard var address = address(host, port) else { return -1 }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); return -1 }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// The length of the first whole HTTP request in `buffer` (head, then a
    /// `Content-Length` body), or nil while it is incomplete.
    static func completeRequestLength(_ buffer: [UInt8]) -> Int? {
        guard let headEnd = ScriptedHTTPServer.find([13, 10, 13, 10], in: buffer) else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self).lowercased()
        var length = 0
        for line in head.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let total = headEnd + 4 + length
        return buffer.count >= total ? total : nil
    }
}
