import Foundation
import Testing
import TestSupport

private let python = "/usr/bin/python3"
/// Where Debian's python3-jsonschema installs the library (for Debian's python3 only).
private let jsonschema = "/usr/lib/python3/dist-packages/jsonschema/__init__.py"

/// The sandbox as QuickBlox's published REST reference (Swagger 2.0, 2018; the copy in
/// `Resources/quickblox-rest-2018.json`) describes it: `Resources/reference_contract.py` runs
/// each of its 67 operations against a real sandbox with a valid form-encoded request, and
/// checks each answer's status, its body against the operation's schema (python3-jsonschema)
/// and that every key the schema documents is there. What the sandbox knowingly answers
/// otherwise is the script's `KNOWN` table, listed in docs/protocol.md §11.
@Suite struct ReferenceContractTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    static let script = resources.appendingPathComponent("reference_contract.py")
    static let reference = resources.appendingPathComponent("quickblox-rest-2018.json")

    init() throws {
        // Fail, never skip: `make test` installs python3-jsonschema.
        try #require(FileManager.default.isExecutableFile(atPath: python), "python3 is not installed; `make test` installs it")
        try #require(FileManager.default.fileExists(atPath: jsonschema), "python3-jsonschema is not installed; `make test` installs it")
    }

    /// The reference's operation ids, in its order.
    static func documentedOperations() throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: reference)) as? [String: Any]
        let operations = document?["operations"] as? [[String: Any]] ?? []
        return operations.compactMap { $0["operationId"] as? String }
    }

    @Test func everyDocumentedOperationAnswersAsTheReferenceSays() throws {
        let documented = try Self.documentedOperations()
        #expect(documented.count == 67)
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try runProcess(python, ["-B", Self.script.path, sandbox.configPath, Self.reference.path], timeout: 180)
        #expect(!run.timedOut)
        var results: [String: [String: Any]] = [:]
        for line in run.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = object["operation"] as? String else { continue }
            results[id] = object
        }
        for id in documented {
            let result = results[id]
            let problems = (result?["problems"] as? [String] ?? ["no result"]).joined(separator: "; ")
            #expect(result?["ok"] as? Bool == true, "\(id) \(result?["method"] ?? "") \(result?["path"] ?? ""): \(problems)")
        }
        #expect(run.status == 0, "the checker exited \(run.status): \(run.stderr.suffix(2000))")
    }
}
