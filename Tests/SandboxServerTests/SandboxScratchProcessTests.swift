import Foundation
import Testing
import TestSupport

/// A sandbox without `--db` keeps `ca.pem` and blobs in a temp directory of its own; a crash
/// cannot remove it, so the next sandbox removes what a dead one left (and only that).
@Suite struct SandboxScratchProcessTests {
    @Test func whatACrashedSandboxLeftIsRemovedAtTheNextStart() throws {
        let directory = try TemporaryDirectory()
        let environment = ["TMPDIR": directory.path]
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("chatctl-sandbox-") }.sorted()
        }
        // Not ours to touch: a directory of the same name without an owner file.
        try FileManager.default.createDirectory(atPath: directory.file("chatctl-sandbox-manual"), withIntermediateDirectories: false)
        let crashed = try SandboxProcess(environment: environment)
        let crashedFiles = try leftovers().filter { $0 != "chatctl-sandbox-manual" }
        #expect(crashedFiles.count == 1)
        #expect(try #require(crashed.config["caFile"] as? String).hasPrefix(directory.path + "/chatctl-sandbox-"))
        crashed.crash()
        #expect(try leftovers().count == 2, "a crash leaves its directory behind")

        let running = try SandboxProcess(environment: environment)
        let runningFiles = try leftovers().filter { $0 != "chatctl-sandbox-manual" }
        #expect(runningFiles.count == 1 && runningFiles != crashedFiles, "the dead one's is gone, ours is there: \(runningFiles)")
        // A live sandbox's directory survives the next start.
        let another = try SandboxProcess(environment: environment)
        #expect(try leftovers().count == 3)
        #expect(another.stop() == 0)
        #expect(running.stop() == 0)
        #expect(try leftovers() == ["chatctl-sandbox-manual"])
    }
}
