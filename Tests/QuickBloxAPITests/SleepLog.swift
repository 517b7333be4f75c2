import QuickBloxAPI
import Synchronization

/// Collects the delays a RetryPolicy asked for, without sleeping.
final class SleepLog: Sendable {
    let delays = Mutex<[Double]>([])
    var recorded: [Double] { delays.withLock { $0 } }
    var policy: RetryPolicy { RetryPolicy(sleep: { seconds in self.delays.withLock { $0.append(seconds) } }) }
}
