#if canImport(Glibc)
import Glibc
#endif
import HTTPTransport

/// A transfer's progress bar on stderr, redrawn in place (`\r`, erase to the end
/// of the line) at most `interval` apart, and cleared at the end. The rate is
/// the bytes of the last few seconds. Only made for a person at a terminal
/// (`make` returns nil otherwise, or with --quiet); the clock is injected so
/// tests can drive the pacing.
final class ProgressMeter {
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

    init(name: String, width: Int, interval: Double = 0.1, clock: @escaping () -> Double = ProgressMeter.monotonicSeconds,
         write: @escaping (String) -> Void) {
        self.name = TerminalText.sanitize(name, newlines: .asSpaces)
        self.width = width; self.interval = interval; self.clock = clock; self.write = write
    }

    /// A meter on the command's stderr, or nil: stderr is not a terminal, or `quiet`.
    static func make(name: String, context: CommandContext, quiet: Bool) -> ProgressMeter? {
        let io = context.io
        guard !quiet, io.stderrIsTerminal else { return nil }
        // stderr's own width: stdout may be a file or a pipe (`-o -`).
        return ProgressMeter(name: name, width: io.stderrColumns ?? 80) { io.writeErr($0) }
    }

    func update(_ progress: TransferProgress) {
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
    func finish() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    /// Bytes a second over the samples kept; nil until they span a quarter second.
    private func rate(now: Double) -> Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.25 else { return nil }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
