// `chatctl-sandbox backup`: a consistent copy of a running sandbox's database.
internal import SQLiteStore
import SandboxLogging

extension SandboxDatabase {
    /// Copies the database file at `source` (which a running sandbox may be writing) into a new
    /// file `destination` with SQLite's online backup API, then checks the copy
    /// (`PRAGMA quick_check`). Throws a sentence naming what failed.
    package static func backup(from source: String, to destination: String) throws(SandboxFailure) {
        let from: Database
        do { from = try Database(path: source, options: .init(readOnly: true)) } catch {
            throw SandboxFailure("cannot read the database \(source): \(error)")
        }
        defer { try? from.close() }
        guard (try? from.queryFirst("SELECT 1 FROM sqlite_master WHERE name = 'sandbox_secrets'") { _ in true }) == true else {
            throw SandboxFailure("\(source) is not a chatctl-sandbox database")
        }
        do {
            // Rollback journal while copying: the pages copied carry the source's WAL setting.
            let to = try Database(path: destination, options: .init(walMode: false))
            defer { try? to.close() }
            try from.backup(into: to)
            let check = try to.queryFirst("PRAGMA quick_check") { $0.string(0) } ?? nil
            guard check == "ok" else { throw SandboxFailure("the copy fails its check: \(check ?? "no answer")") }
        } catch let error as SandboxFailure {
            throw error
        } catch {
            throw SandboxFailure("cannot copy the database into \(destination): \(error)")
        }
    }
}
