import Foundation

/// Everything a child writes to one pipe (or a terminal), read on a thread of its own
/// as it comes, so that a test can wait for a line instead of sleeping.
package final class OutputLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false
    private let name: String

    /// Starts reading `fd` (which it then owns and closes) until end of file or an error
    /// (a terminal's master reports EIO once the other side is gone).
    package init(reading fd: Int32, name: String) {
        self.name = name
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                condition.lock()
                if n > 0 { data.append(contentsOf: buffer[0..<n]) } else { ended = true }
                condition.broadcast()
                condition.unlock()
                if n <= 0 { break }
            }
            close(fd)
        }
    }

    /// What was read so far.
    package var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the writer has closed its end (everything it wrote is in `text`).
    package var hasEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Waits until `condition` holds for the text so far; throws, with the text, when it
    /// still does not after `timeout` seconds or once the writer has closed its end.
    @discardableResult
    package func wait(for what: String, timeout: Double, until satisfied: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if satisfied(text) { return text }
            if ended { throw TestSupportError("\(name) ended without \(what); it said:\n\(text)") }
            if !condition.wait(until: deadline) {
                throw TestSupportError("no \(what) on \(name) within \(timeout) s; it said:\n\(text)")
            }
        }
    }

    /// Waits for a complete line that `matches`, and returns it (without its newline).
    @discardableResult
    package func waitForLine(_ what: String, timeout: Double, where matches: (String) -> Bool) throws -> String {
        var found: String?
        try wait(for: what, timeout: timeout) { text in
            found = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .lazy.map(String.init).first(where: matches)
            return found != nil
        }
        return found!
    }

    /// Waits for a complete line containing `needle`, and returns it.
    @discardableResult
    package func waitForLine(containing needle: String, timeout: Double) throws -> String {
        try waitForLine("a line containing '\(needle)'", timeout: timeout) { $0.contains(needle) }
    }

    /// Waits until the writer closes its end; false if it is still open after `timeout` seconds.
    package func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended { if !condition.wait(until: deadline) { return ended } }
        return true
    }
}
