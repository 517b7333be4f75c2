// `--write-config`: the config line in a file as well, for the packaged service
// (packaging/deb/chatctl-sandbox.service), which its group's members read.
import Foundation
import Testing
import TestSupport

@Suite struct SandboxConfigFileTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func theConfigLineIsWrittenToTheFileForTheGroupAlone() throws {
        let directory = try TemporaryDirectory(prefix: "sandbox-config-file")
        let file = directory.file("config.json")
        let sandbox = try SandboxProcess(arguments: ["--db", directory.file("sandbox.db"), "--write-config", file])
        // Written before the line on stdout, which SandboxProcess has waited for.
        #expect(try String(contentsOfFile: file, encoding: .utf8) == sandbox.configLine + "\n")
        #expect(try Self.mode(file) == 0o640)
        // The CA the line names, beside the database, is readable by the same group.
        let caFile = try #require(sandbox.config["caFile"] as? String)
        #expect(caFile == directory.file("sandbox.db.ca.pem"))
        #expect(try Self.mode(caFile) == 0o640)
        #expect(sandbox.stop() == 0)
    }

    @Test func aFileThatCannotBeWrittenStopsTheStartWithItsName() throws {
        let directory = try TemporaryDirectory(prefix: "sandbox-config-file")
        let file = directory.file("missing/config.json")
        let result = try runProcess(productPath("chatctl-sandbox"),
                                    ["--host", "127.0.0.1", "--api-port", "0", "--chat-port", "0", "--log-level", "error",
                                     "--write-config", file], timeout: 30)
        #expect(result.status == 1)
        #expect(result.stdout == "", "no config line when the file could not be written")
        #expect(result.stderr == "chatctl-sandbox: error: cannot write \(file) (--write-config): No such file or directory\n")
    }
}
