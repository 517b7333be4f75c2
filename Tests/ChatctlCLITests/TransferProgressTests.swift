import Testing
import HTTPTransport
@testable import ChatctlCLI
@testable import Presentation

/// The progress bar: a pure line from a value, drawn at most ten times a second;
/// sizes in the units `history` shows attachments in.
@Suite struct TransferProgressTests {
    @Test func aFullLineHasNameBarPercentBytesRateAndTimeLeft() {
        let line = TransferProgressLine(name: "cat.jpg", bytes: 12_300_000, total: 29_100_000, bytesPerSecond: 8_400_000)
        #expect(line.render(width: 80)
            == "cat.jpg [###########----------------]   42%  12 MB / 28 MB  8.0 MB/s  0:02 left")
        #expect(line.render(width: 80).count <= 79)
    }

    @Test func narrowTerminalsLoseTheBarThenTheSpeedThenNameLetters() {
        let line = TransferProgressLine(name: "a-rather-long-holiday-video-name.mp4", bytes: 500_000_000, total: 1_000_000_000,
                                        bytesPerSecond: 50_000_000)
        for width in [20, 30, 40, 50, 60, 70, 80, 120] {
            #expect(line.render(width: width).count <= width - 1, "width \(width)")
        }
        #expect(line.render(width: 60) == "a-rather-long-h…   50%  477 MB / 954 MB  48 MB/s  0:10 left")
        #expect(line.render(width: 40) == "a-rather-long-h…   50%  477 MB / 954 MB")
        #expect(line.render(width: 120).hasPrefix("a-rather-long-holiday-video-name.mp4 [###############---------------]"))
    }

    @Test func anUnknownTotalShowsBytesAndRateOnly() {
        let line = TransferProgressLine(name: "stdin", bytes: 2_500_000, total: nil, bytesPerSecond: 1_000_000)
        #expect(line.render(width: 80) == "stdin  2.4 MB  977 KB/s")
        #expect(TransferProgressLine(name: "x", bytes: 10, total: 100, bytesPerSecond: nil).render(width: 50) == "x [##-----------------------]   10%  10 B / 100 B")
        #expect(TransferProgressLine(name: "x", bytes: 10, total: 100, bytesPerSecond: 0).render(width: 80).hasSuffix("0 B/s  --:-- left"))
    }

    @Test(arguments: [(0.2, "0:01"), (59.0, "0:59"), (61.0, "1:01"), (3725.0, "1:02:05"), (Double.infinity, "--:--")])
    func timesLeft(_ seconds: Double, _ text: String) {
        #expect(TransferProgressLine.duration(seconds) == text)
    }

    /// A clock the test moves: at most one redraw per tenth of a second, the rate from
    /// what moved over the last seconds, and a clean line at the end.
    @Test func redrawsArePacedAndTheLineIsClearedAtTheEnd() {
        var now = 100.0
        var written: [String] = []
        let meter = ProgressMeter(name: "cat\u{1B}[31m.jpg", width: 80, clock: { now }) { written.append($0) }
        meter.update(TransferProgress(bytes: 0, total: 1_000_000))
        #expect(written.count == 1)
        for step in 1...50 {
            now += 0.01
            meter.update(TransferProgress(bytes: Int64(step) * 10_000, total: 1_000_000))
        }
        // Half a second of updates every 10 ms: a draw each 0.1 s.
        #expect(written.count == 6)
        #expect(written.allSatisfy { $0.hasPrefix("\r") && $0.hasSuffix("\u{1B}[K") })
        #expect(written.last?.contains("cat.jpg") == true)
        #expect(written.last?.contains("\u{1B}[31m") == false)
        #expect(written.last?.contains("977 KB/s") == true)
        meter.finish()
        #expect(written.last == "\r\u{1B}[K")
        meter.finish()
        #expect(written.count == 7)
    }

    @Test func noBarWithoutATerminalOrWithQuiet() throws {
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "download"], environment: [:], io: CapturedIO())
        #expect(ProgressMeter.make(name: "x", context: context, quiet: false) == nil)
        let terminal = CommandContext(globals: Chatctl(), path: ["chatctl", "download"], environment: [:], io: TerminalStderr())
        #expect(ProgressMeter.make(name: "x", context: terminal, quiet: false) != nil)
        #expect(ProgressMeter.make(name: "x", context: terminal, quiet: true) == nil)
    }

    @Test func theBarFitsStderrsWidthWhateverStdoutIs() throws {
        let io = TerminalStderr(columns: 40)
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "download"], environment: [:], io: io)
        let meter = try #require(ProgressMeter.make(name: "a-long-file-name-for-a-narrow-terminal.bin", context: context, quiet: false))
        meter.update(TransferProgress(bytes: 5_000_000, total: 10_000_000))
        let line = try #require(io.err.last)
        #expect(line.hasPrefix("\r") && line.hasSuffix("\u{1B}[K"))
        #expect(line.dropFirst().dropLast(3).count <= 39)
    }
}

/// Captured output whose stderr claims to be a terminal.
final class TerminalStderr: TerminalIO {
    var err: [String] = []
    let columns: Int?
    init(columns: Int? = nil) { self.columns = columns }
    var stderrColumns: Int? { columns ?? 80 }
    func writeOut(_ text: String) {}
    func writeErr(_ text: String) { err.append(text) }
    var stdinIsTerminal: Bool { false }
    var stdoutIsTerminal: Bool { false }
    var stderrIsTerminal: Bool { true }
    var stdoutColumns: Int? { nil }
    func readAllInput() -> [UInt8]? { nil }
    func readSecret(prompt: String) -> String? { nil }
    func readLine(prompt: String) -> String? { nil }
}
