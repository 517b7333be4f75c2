import Foundation
import Testing
import TestSupport

/// chatctl stops on SIGTERM even when its parent started it with signals
/// blocked (as a thread of this very test runner does).
@Suite struct SignalTests {
    @Test func listenStopsOnSIGTERMWhateverMaskItInherited() throws {
        let chat = try RestartableChat()
        let listener = try chat.bob.cli.background(["listen", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        let status = try String(contentsOfFile: "/proc/\(listener.processIdentifier)/status", encoding: .utf8)
        let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }.map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        #expect(blocked.flatMap { UInt64($0, radix: 16) } == 0, "blocked signals: \(blocked ?? "?")")
        let start = Date()
        kill(listener.processIdentifier, SIGTERM)
        _ = listener.finish(timeout: 10)
        #expect(Date().timeIntervalSince(start) < 5, "SIGTERM took \(Date().timeIntervalSince(start)) s")
    }
}
