import Foundation

/// Slows a process to about a tenth of its pace by letting it run 2 ms in every
/// 20 (SIGCONT, then SIGSTOP), so that a transfer to it that takes a fraction of a
/// second takes seconds and a test catches it under way whatever the machine's
/// load. `holdStopped()` ends the cycle with the process stopped; `SIGCONT` lets
/// it go on (or SIGKILL ends it).
package final class ProcessThrottle: Sendable {
    private let pid: pid_t
    private let done = Flag(), ended = Flag()

    package init(_ pid: pid_t) {
        self.pid = pid
        Thread { [pid, done, ended] in
            while !done.isSet {
                kill(pid, SIGCONT)
                usleep(2_000)
                kill(pid, SIGSTOP)
                usleep(18_000)
            }
            ended.set()
        }.start()
    }

    /// Ends the cycle and leaves the process stopped.
    package func holdStopped() {
        done.set()
        _ = ended.wait(timeout: 10)
        kill(pid, SIGSTOP)
    }

    deinit { done.set() }
}
