import Foundation

/// Polls `condition` until it holds. Throws, naming `what` was awaited, when `timeout`
/// seconds pass first: a bounded wait for something observable, never a hopeful sleep.
package func waitUntil(_ what: @autoclosure () -> String, timeout: Double, every interval: Double = 0.01,
                      _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else {
            throw TestSupportError("timed out after \(timeout) s waiting for \(what())")
        }
        usleep(useconds_t(interval * 1_000_000))
    }
}
