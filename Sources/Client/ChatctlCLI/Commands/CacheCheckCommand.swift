import CommandLineKit
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl cache check`: the cache file's header, schema version, SQLite's integrity
/// check and the search index's, and the outbox; exit 1 when anything is wrong.
struct CacheCheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Check the message cache: integrity, schema version, outbox.",
        discussion: """
            Runs SQLite's quick_check and integrity_check, checks the search index \
            against the messages and the schema version against this chatctl's, and \
            counts the outbox. Nothing is changed. Exit 0 when the cache is sound (or \
            there is none yet), 1 when it is damaged or was written by a newer chatctl: \
            then 'chatctl cache rebuild'. No network.
            """,
        examples: [
            Example("Check the cache (exit 1 when damaged)", "chatctl cache check"),
            Example("As JSON", "chatctl cache check --json"),
        ])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let login = try context.cacheLogin(source: .cacheOnly)
        let report = login.checkCache()
        if json {
            context.io.writeOut(JSONOutput.line(Self.json(report)))
        } else {
            context.io.writeOut(Table.render(Self.rows(report), width: context.terminalWidth))
        }
        return report.isHealthy ? .ok : .failure
    }

    static func verdict(_ report: CacheCheckReport) -> String {
        if !report.exists { return "no cache yet" }
        if report.isNewer { return "written by a newer chatctl: upgrade, or 'chatctl cache rebuild'" }
        if !report.isHealthy { return "damaged: run 'chatctl cache rebuild' (the outbox is kept)" }
        return "ok"
    }

    static func rows(_ report: CacheCheckReport) -> [[String]] {
        var rows = [["cache:", report.path + (report.exists ? " (\(AttachmentLabel.byteCount(Int(report.size))))" : "")]]
        if report.exists {
            let version = report.schemaVersion.map(String.init) ?? "unreadable"
            rows.append(["schema:", "\(version) (this chatctl knows \(report.knownSchemaVersion))"])
            let problems = report.problems.map { TerminalText.sanitize($0, newlines: .asSpaces) }
            rows.append(["integrity:", problems.isEmpty ? "ok" : problems.prefix(5).joined(separator: "; ")
                         + (problems.count > 5 ? "; … \(problems.count - 5) more" : "")])
            rows.append(["search index:", report.searchIndexOK.map { $0 ? "ok" : "does not match the messages" } ?? "not checked"])
            rows.append(["outbox:", report.outboxCount.map { "\($0) message\($0 == 1 ? "" : "s")" } ?? "unreadable"])
        }
        rows.append(["verdict:", verdict(report)])
        return rows
    }

    static func json(_ report: CacheCheckReport) -> JSONValue {
        .object([
            "path": .string(report.path), "exists": .bool(report.exists), "size": .int(Int(report.size)),
            "is_database": .bool(report.isDatabase),
            "schema_version": report.schemaVersion.map(JSONValue.int) ?? .null,
            "known_schema_version": .int(report.knownSchemaVersion),
            "problems": .array(report.problems.map(JSONValue.string)),
            "search_index": report.searchIndexOK.map { .string($0 ? "ok" : "damaged") } ?? .null,
            "outbox_count": report.outboxCount.map(JSONValue.int) ?? .null,
            "newer": .bool(report.isNewer), "ok": .bool(report.isHealthy),
        ])
    }
}
