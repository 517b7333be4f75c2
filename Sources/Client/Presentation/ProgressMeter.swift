#if canImport(Glibc)
import Glibc
#endif
import HTTPTransport

/// A transfer's progress bar, redrawn in place (`\r`, erase to the end of the line) at
/// most `interval` apart through `write` (a terminal's stderr), and cleared at the end.
/// The rate is the bytes of the last few seconds; the clock is injected so tests can
/// drive the pacing.
package final class ProgressMeter {
    private let name: String
    private let write: (String) -> Void
    private let width: Int
    private let clock: () -> Double
    private let interval: Double
    private var lastDraw: Double?
    private var drawn = false
    /// (time, bytes) of the last `window` seconds, oldest first.
    private var samples: [(time: Double, bytes: Int64)] = []
    private let window = 3.0

    package init(name: String, width: Int, interval: Double = 0.1, clock: @escaping () -> Double = ProgressMeter.monotonicSeconds,
         write: @escaping (String) -> Void) {
        self.name = TerminalText.sanitize(name, newlines: .asSpaces)
        self.width = width; self.interval = interval; self.clock = clock; self.write = write
    }

    package func update(_ progress: TransferProgress) {
        let now = clock()
        samples.append((now, progress.bytes))
        while let first = samples.first, now - first.time > window, samples.count > 2 { samples.removeFirst() }
        if let lastDraw, now - lastDraw < interval { return }
        lastDraw = now
        let line = TransferProgressLine(name: name, bytes: progress.bytes, total: progress.total, bytesPerSecond: rate(now: now))
        write("\r" + line.render(width: width) + "\u{1B}[K")
        drawn = true
    }

    /// Erases the line, so what follows starts on a clean one.
    package func finish() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    /// Bytes a second over the samples kept; nil until they span a quarter second.
    private func rate(now: Double) -> Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.25 else { return nil }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }

    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
