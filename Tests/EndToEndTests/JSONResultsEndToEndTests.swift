import Foundation
import Testing
import TestSupport

/// `--json` wherever a command produces a result (logout, read, sync,
/// download), with the keys docs/cli-output.md documents.
@Suite(.serialized) struct JSONResultsEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    func object(_ result: ProcessResult) throws -> [String: Any] {
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try #require(jsonObject(result.stdout), "not JSON: \(result.stdout)")
    }

    @Test func readAndSyncSayWhatTheyDid() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for text in ["one", "two"] { #expect(try alice.run(["send", "@" + bob.login, text]).status == 0) }

        let synced = try object(try bob.run(["sync", "--json", "--quiet"]))
        #expect(synced["dialogs"] as? Int == 1 && synced["messages"] as? Int == 2, "\(synced)")

        let read = try bob.run(["read", "@" + alice.login, "--json", "--no-chat"])
        let marked = try object(read)
        #expect(marked["marked_read"] as? Int == 2 && marked["unread_left"] as? Int == 0, "\(marked)")
        #expect((marked["dialog_id"] as? String)?.count == 24)
        #expect(read.stderr.isEmpty, "the count is the JSON's: \(read.stderr)")
    }

    @Test func downloadDescribesEachFileSaved() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let here = try TemporaryDirectory(prefix: "json-download")
        let bytes = Data((0..<3000).map { UInt8($0 % 251) })
        try bytes.write(to: URL(fileURLWithPath: here.file("notes.bin")))
        #expect(try alice.run(["send", "@" + bob.login, "--attach", here.file("notes.bin"), "the notes"]).status == 0)
        let message = try #require(try bob.history("@" + alice.login).first { $0["message"] as? String == "the notes" })
        let id = try #require(message["_id"] as? String)

        try FileManager.default.createDirectory(atPath: here.file("out"), withIntermediateDirectories: false)
        let saved = try object(try bob.run(["download", id, "-o", here.file("out"), "--json"]))
        #expect(saved["path"] as? String == here.file("out") + "/notes.bin", "\(saved)")
        #expect(saved["name"] as? String == "notes.bin" && saved["size"] as? Int == 3000 && saved["message_id"] as? String == id, "\(saved)")
        #expect((saved["uid"] as? String)?.isEmpty == false)
    }

    @Test func logoutSaysWhetherThereWasASession() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let first = try object(try alice.run(["logout", "--json"]))
        #expect(first["logged_out"] as? Bool == true && first["ended_on_server"] as? Bool == true && first["login"] as? String == alice.login,
                "\(first)")
        let again = try object(try alice.run(["logout", "--json"]))
        #expect(again["logged_out"] as? Bool == false && again["login"] is NSNull, "\(again)")
    }
}
