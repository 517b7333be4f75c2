#if canImport(Glibc)
import Glibc
#endif

/// The one way the package's programs deal with signals: what each ignores from its start,
/// and every later change of what a signal does (caught into a `SignalPipe`, ignored while a
/// child runs, a file removed on the way out), made with `set` and put back with the
/// `Saved` it returns. A signal is delivered to a thread, which is why this lives with them.
package enum ProcessSignals {
    /// What a signal does while changed.
    package enum Disposition {
        case ignored
        /// `handler` runs on the signal: it may only do what a signal handler may (write,
        /// unlink, `endBy`). `restarting`: interrupted system calls go on (`SA_RESTART`).
        case handled(@convention(c) (Int32) -> Void, restarting: Bool)
    }

    /// What signals did before a `set`, to put back.
    package struct Saved {
        fileprivate var actions: [(signal: Int32, action: sigaction)] = []

        /// The signals `set` changed.
        package var signals: [Int32] { actions.map(\.signal) }

        /// Puts back what the signals did before, in the reverse order of the changes.
        package func restore() {
            for (signal, action) in actions.reversed() {
                var action = action
                sigaction(signal, &action, nil)
            }
        }
    }

    /// What each program sets first (chatctl's and chatctl-sandbox's `main`): SIGPIPE ignored
    /// (`ignoreBrokenPipes`), and SIGXFSZ ignored, so a file-size limit (`ulimit -f`, or what
    /// a full disk looks like to one process) makes a write fail with EFBIG, to be reported
    /// (a download's .part kept, the sandbox's 507, a backup's copy removed), not kill us.
    package static func startProgram() {
        ignoreBrokenPipes()
        signal(SIGXFSZ, SIG_IGN)
    }

    /// SIGPIPE ignored, once a process: a closed pipe on stdout (`chatctl … | head`) or a peer
    /// that vanishes mid-write costs an EPIPE, not the process. Each program's start does it;
    /// so does what writes to sockets in a process that need not be one of ours (the sandbox's
    /// event loop, in a test's process or the bench's).
    package static func ignoreBrokenPipes() { _ = brokenPipesIgnored }

    private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Every signal unblocked on this thread (and the threads it starts): a parent may start
    /// us from a thread that blocks signals (libdispatch workers do, and a blocked mask is
    /// inherited), and ^C and SIGTERM must still stop us.
    package static func unblockAll() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }

    /// `signals` unblocked on this thread (a caught signal that stays blocked never comes).
    package static func unblock(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// Sets `disposition` for each of `signals`; what they did before comes back for `restore`.
    /// `onlyWhereDefault`: a signal already ignored (nohup's SIGHUP) or handled is left as it is.
    package static func set(_ disposition: Disposition, for signals: [Int32], onlyWhereDefault: Bool = false) -> Saved {
        var saved = Saved()
        for signal in signals {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if onlyWhereDefault && current.__sigaction_handler.sa_handler != nil { continue }
            var action = sigaction()
            switch disposition {
            case .ignored:
                action.__sigaction_handler.sa_handler = SIG_IGN
            case .handled(let handler, let restarting):
                action.__sigaction_handler.sa_handler = handler
                action.sa_flags = restarting ? SA_RESTART : 0
            }
            sigemptyset(&action.sa_mask)
            if sigaction(signal, &action, &current) == 0 { saved.actions.append((signal, current)) }
        }
        return saved
    }

    /// Ends the process by `signal`, as it would have ended had nothing caught it (a shell
    /// then sees 130 for ^C). Safe in a signal handler; returns only while `signal` is blocked.
    package static func endBy(_ signal: Int32) {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
    }
}

@available(*, unavailable)
extension ProcessSignals.Saved: Sendable {}
