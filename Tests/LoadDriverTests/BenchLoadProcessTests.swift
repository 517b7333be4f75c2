import Foundation
import Testing
import TestSupport

/// The bench's load driver against a real sandbox: small runs of both modes must deliver
/// every message once and in order and say so in their JSON (make bench trusts these rows).
@Suite(.serialized) struct BenchLoadProcessTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, rows: [[String: Any]], stderr: String) {
        let result = try runProcess(productPath("BenchLoad"), arguments, timeout: 120)
        if result.timedOut { throw TestSupportError("BenchLoad did not finish within 120 s: \(result.stderr)") }
        let json = result.stdout.isEmpty ? nil : try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result.status, json?["rows"] as? [[String: Any]] ?? [], result.stderr)
    }

    @Test func theRouterModeDeliversEveryMessageOnceInOrder() throws {
        let sandbox = try SandboxProcess(arguments: ["--password-iterations", "1000", "--log-level", "warning"])
        let (status, rows, stderr) = try Self.run(["router", sandbox.configPath, "--messages", "3000", "--window", "200",
                                                   "--sandbox-pid", String(sandbox.pid)])
        #expect(status == 0, "\(stderr)")
        let row = try #require(rows.first)
        let detail = try #require(row["detail"] as? [String: Any])
        #expect(row["key"] as? String == "sandbox_router")
        // (`ok` also weighs the CPU time, which a debug build and a busy machine decide: not tested.)
        #expect(detail["delivered"] as? Int == 3000)
        #expect(detail["duplicates"] as? Int == 0 && detail["out_of_order"] as? Int == 0)
        #expect(detail["acknowledged"] as? Int == 3000)
        #expect((row["value"] as? Double ?? 0) > 0)
        #expect((detail["sandbox_cpu_us_per_message"] as? Double ?? 0) > 0)
        #expect(!sandbox.stderr.contains("storage failed"), "\(sandbox.stderr)")
    }

    @Test func theScaleModeConnectsEveryoneAndCountsEachDeliveryOnce() throws {
        let sandbox = try SandboxProcess(arguments: ["--password-iterations", "1000", "--log-level", "warning"])
        let (status, rows, stderr) = try Self.run(["scale", sandbox.configPath, "--users", "40", "--seconds", "1.5",
                                                   "--private-rate", "4", "--group-rate", "1", "--sandbox-pid", String(sandbox.pid),
                                                   "--password-iterations", "1000"])
        #expect(status == 0, "\(stderr)")
        let row = try #require(rows.first)
        let detail = try #require(row["detail"] as? [String: Any])
        #expect(row["key"] as? String == "sandbox_scale_40")
        #expect(row["ok"] as? Bool == true)
        let expected = try #require(detail["deliveries_expected"] as? Int)
        #expect(expected == (detail["private_sent"] as? Int ?? -1) + 40 * (detail["group_sent"] as? Int ?? -1))
        #expect(detail["deliveries"] as? Int == expected && expected > 40)
        #expect(detail["duplicates"] as? Int == 0 && detail["out_of_order"] as? Int == 0)
        #expect(detail["sandbox_open_files_connected"] as? Int ?? 0 >= 40)
        #expect((detail["rss_per_connection_kb"] as? Double ?? 0) > 0)
        #expect((detail["note"] as? String ?? "").contains("PBKDF2"))
    }

    @Test func aSandboxThatIsNotThereIsOneLineAndExit1() throws {
        let directory = try TemporaryDirectory(prefix: "benchload")
        let config = directory.file("config.json")
        try #"{"appId":1,"authKey":"k","authSecret":"s","endpoints":{"api":"http://127.0.0.1:9","chat":"xmpp://127.0.0.1:9"},"caFile":"/nonexistent"}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (status, rows, stderr) = try Self.run(["router", config, "--messages", "10"])
        #expect(status == 1)
        #expect(rows.isEmpty)
        #expect(stderr.hasPrefix("BenchLoad: ") && stderr.split(separator: "\n").count == 1, "\(stderr)")
    }
}
