#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Asks a running sandbox to stop: the one part of it another thread may use. It writes a
/// byte to a pipe the loop watches (a pipe, not `event_active`: that needs libevent_pthreads,
/// which the CEvent module does not link).
package final class SandboxStopHandle: Sendable {
    /// The pipe's write end; -1 once the sandbox is gone, so a late `stop()` never writes to a reused fd.
    private let writer: Mutex<Int32>

    init(writer: Int32) { self.writer = Mutex(writer) }

    /// Thread-safe: asks the loop to finish, closing every connection. Before `run()`, it makes
    /// `run()` return at once; after the sandbox is gone, it does nothing.
    package func stop() {
        writer.withLock { fd in
            guard fd >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    /// The sandbox is gone: the pipe's end is closed, and `stop()` does nothing from now on. Idempotent.
    func close() {
        writer.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}
