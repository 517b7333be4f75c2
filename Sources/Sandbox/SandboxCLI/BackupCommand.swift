import CommandLineKit
import SandboxServer
#if canImport(Glibc)
import Glibc
#endif

/// `chatctl-sandbox backup --db PATH OUT`: a running sandbox's database, blobs and CA, copied
/// consistently to a new path that `--db OUT` starts a sandbox on.
struct BackupCommand: SandboxCommand {
    static let configuration = CommandConfiguration(
        name: "backup",
        abstract: "Copy a sandbox's database, blob files and CA, while it runs.",
        discussion: """
            Copies the database with SQLite's online backup API (one consistent snapshot; the \
            sandbox goes on serving), then PATH.blobs/ and PATH.ca.pem, to OUT, OUT.blobs/ and \
            OUT.ca.pem. OUT must not exist: nothing is overwritten. chatctl-sandbox --db OUT \
            then starts a sandbox with the same users, messages, files and certificate. Prints \
            one line on standard output saying what was copied.
            """,
        examples: [
            Example("Back up a team's sandbox while it runs", "chatctl-sandbox backup --db team.db backups/team-$(date +%F).db"),
            Example("Serve the copy", "chatctl-sandbox --db backups/team-2026-11-30.db"),
        ])

    @Option("db", metavar: "PATH", help: "The database file of the sandbox to copy (its --db).", completion: .file)
    var db: NonEmptyText?
    @Argument("OUT", help: "Where the copy goes: a new path (OUT.blobs/ and OUT.ca.pem go beside it).", completion: .file)
    var out: NonEmptyText

    init() {}

    func run() throws(SandboxUsageError) -> Int32 {
        guard let db else { throw SandboxUsageError("backup needs --db PATH: the database file of the sandbox to copy") }
        do {
            let summary = try SandboxBackup.run(database: db.text, to: out.text)
            let ca = summary.caFile.map { ", CA \($0)" } ?? ""
            StandardStreams.out("backed up \(db.text) to \(summary.database): \(summary.blobFiles) blob files (\(summary.blobBytes) bytes)\(ca)\n")
            return 0
        } catch where error.kind == .invalidInput {
            throw SandboxUsageError("\(error)")
        } catch {
            StandardStreams.err("chatctl-sandbox: error: backup: \(error)\n")
            return 1
        }
    }
}
