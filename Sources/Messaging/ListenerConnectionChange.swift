/// What became of a listener's connection after its first connect, for a status line.
import Diagnostics
package enum ListenerConnectionChange: Sendable {
    case lost(Failure)
    /// The next attempt comes in this many seconds.
    case retrying(in: Double)
    case reconnected
}
