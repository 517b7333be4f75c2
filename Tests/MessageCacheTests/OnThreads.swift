import Foundation
import Testing

/// Runs `body(i)` for i in 0..<count, each on its own thread, and waits for all (a test
/// failure, not a hang, if they have not finished within `timeout` seconds).
func onThreads(_ count: Int, timeout: Double = 120, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            body(i)
            group.leave()
        }
        thread.start()
    }
    #expect(group.wait(timeout: .now() + timeout) == .success, "\(count) threads did not finish within \(timeout) s")
}
