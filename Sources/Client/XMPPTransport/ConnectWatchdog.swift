#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Threads

/// Ends a connect attempt that libstrophe would not end by itself. Its TLS handshake
/// (`tls_start`, for `xmpps://` and after STARTTLS's `<proceed/>`) loops until the server
/// answers, so a server that accepts TCP and then says nothing would hold the owning
/// thread past any deadline. One thread per attempt sleeps until `deadline` (or until
/// `disarm()`) and then shuts the attempt's socket down: the handshake fails at once and
/// libstrophe returns to the owner, which reports a timeout.
final class ConnectWatchdog: Sendable {
    private struct State {
        var armed = true
        var fired = false
        /// Hang up at once (the connect was cancelled), not at the deadline.
        var hangUpRequested = false
    }
    private let state = Mutex(State())
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let connection: UInt
    private let port: Int
    private let thread = Mutex<WorkerThread<WatchRequest>?>(nil)

    /// nil when no thread could be started (the attempt then runs unwatched, as before).
    init?(connection conn: OpaquePointer, port: Int, deadline: ContinuousClock.Instant) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        wakeReader = fds[0]
        wakeWriter = fds[1]
        connection = ConnectSockets.key(conn)
        self.port = port
        let remaining = deadline - ContinuousClock.now
        let milliseconds = max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
        // Nil here still runs deinit, which closes the pipe.
        guard let watcher = SpareWatchThread.take() ?? SpareWatchThread.start() else { return nil }
        thread.withLock { $0 = watcher }
        watcher.post(WatchRequest(watchdog: self, milliseconds: Int32(clamping: milliseconds)))
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    /// Stops watching (before the owner closes the socket); true if it had already hung up.
    @discardableResult
    func disarm() -> Bool {
        let fired = state.withLock { state in
            state.armed = false
            return state.fired
        }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        thread.withLock { value in defer { value = nil }; return value }?.join()
        return fired
    }

    /// Hangs up now rather than at the deadline (the connect was cancelled); nothing once disarmed.
    func hangUpNow() {
        state.withLock { $0.hangUpRequested = true }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    func watch(milliseconds: Int32) {
        var ready = pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)
        var result: Int32
        repeat { result = poll(&ready, 1, milliseconds) } while result < 0 && errno == EINTR
        state.withLock { state in
            // Woken without a hang-up asked for: disarmed.
            guard state.armed, result == 0 || state.hangUpRequested else { return }
            state.fired = ConnectSockets.hangUp(connection: connection, port: port)
        }
    }
}

/// A watchdog thread started before it is needed (`XMPPConnection.prepareLibrary()`) and
/// parked until a connect takes it. `pthread_create` waits while another thread is in `dlopen`
/// (glibc sets a new thread's thread-local storage up under a lock dlopen holds while it
/// loads), so a connect beside a thread loading a library (`chatctl login` loads libcurl while
/// its chat thread connects) would otherwise wait for the whole load to start its watchdog.
enum SpareWatchThread {
    private static let parked = Mutex<WorkerThread<WatchRequest>?>(nil)

    /// Parks one thread, unless one is parked already.
    static func park() {
        parked.withLock { parked in
            if parked == nil { parked = start() }
        }
    }

    /// The parked thread, now the caller's to post its watch to and join; nil when none is parked.
    static func take() -> WorkerThread<WatchRequest>? {
        parked.withLock { parked in defer { parked = nil }; return parked }
    }

    /// A thread that waits for one watch and runs it; nil when none can be started.
    static func start() -> WorkerThread<WatchRequest>? {
        WorkerThread<WatchRequest>.start { worker in
            var requests = worker.take()
            while requests.isEmpty {
                worker.wait()
                requests = worker.take()
            }
            requests[0].watchdog.watch(milliseconds: requests[0].milliseconds)
        }
    }
}

/// What the watchdog's thread is handed.
final class WatchRequest: Sendable {
    let watchdog: ConnectWatchdog
    let milliseconds: Int32
    init(watchdog: ConnectWatchdog, milliseconds: Int32) { self.watchdog = watchdog; self.milliseconds = milliseconds }
}
