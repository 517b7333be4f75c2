#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl export DIALOG`: the whole conversation, oldest first, as Markdown, one
/// self-contained HTML file, or JSON Lines. The cache is filled from the server first
/// (every page of the history back to its start), then read and written a page at a
/// time (`ExportStream`), so a dialog of any length takes bounded memory.
struct ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write a whole dialog as Markdown, HTML or JSON Lines.",
        discussion: """
            Every message of DIALOG, oldest first. The cache is first filled with the dialog's whole history \
            from the server (not with --offline), then read and written a page at a time, so a dialog of any \
            length takes little memory. md: a heading a day, each message's sender, time and (your own) state, \
            then its text; html: one self-contained file, images inside it up to --inline-limit; jsonl: the \
            message objects of history --json, one a line. Replies and forwards quote their original. Other \
            users' text is escaped for the format. --attachments DIR saves each file into DIR and links to it; \
            without it files are only named (HTML still inlines images). With -o the file is replaced only \
            once the export is whole. A file that cannot be fetched is a line on stderr: the export goes on, \
            and exits 1.
            """,
        examples: [
            Example("The dialog ops as Markdown", "chatctl export ops > ops.md"),
            Example("One HTML page of the dialog with bob, its files saved beside it",
                    "chatctl export @bob --format html --attachments bob-files -o bob.html"),
            Example("The last week's texts, one a line", "chatctl export ops --format jsonl --since 7d | jq -r .message"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Option("format", metavar: "FORMAT", help: "md, html or jsonl.")
    var format: ExportFormat = .md
    @Option("output", short: "o", metavar: "FILE", help: "Write to FILE instead of standard output (replaced once the export is whole).",
            completion: .file)
    var output: String?
    @Option("attachments", metavar: "DIR", help: "Save each attachment into DIR (made when missing) and link to it.",
            completion: .directory)
    var attachments: String?
    @Option("inline-limit", metavar: "SIZE", help: "With --format html: put images up to SIZE inside the page; 0: none.")
    var inlineLimit = ByteSize(bytes: 2 * 1024 * 1024)
    @Option("since", metavar: "T", help: SharedHelp.since)
    var since: TimeArgument?
    @Option("before", metavar: "T", help: SharedHelp.before)
    var before: TimeArgument?
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let now = Int(Date().timeIntervalSince1970)
        let since = self.since?.unixTime(now: now), before = self.before?.unixTime(now: now)
        try check(format: format, since: since, before: before, context: context)
        // Made first: a place the export cannot be written is said before anything is fetched.
        let file = try output.map { path throws(Failure) in try AtomicOutputFile(path: path) }

        let source: DataSource = offline ? .cacheOnly : .server
        let service = try context.messagingService(source: source)
        let target = try service.resolve(dialog, source: source, createPrivate: false)
        if source == .server {
            try service.syncHistory(dialogID: target.id, limit: .max, before: before, since: since)
            try service.fetchUsers(target.occupantIDs)
        }
        if let attachments { try Self.makeDirectory(attachments) }

        var names = service.displayNames(Set(target.occupantIDs + [service.me]))
        let header = ExportHeader(
            title: DialogTitle.of(target, me: service.me, names: names), dialogID: target.id,
            dialogType: MessagingService.typeName(target.type), exportedBy: names[service.me] ?? "user \(service.me)",
            exportedAt: now, since: since, before: before, attachmentsSaved: attachments != nil)
        let files = ExportAttachmentFiles(
            directory: attachments, linkDirectory: attachments.map { dir in
                output == nil && dir.hasPrefix("/") ? dir : RelativePath.from(RelativePath.directory(of: output ?? "-"), to: dir) },
            inlineLimit: format == .html ? inlineLimit.bytes : nil,
            api: offline ? nil : service.api, scratchBase: context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp",
            io: context.io)

        let write: (String) throws -> Void = { text in
            guard !text.isEmpty else { return }
            if let file { try file.write(text) } else { context.io.writeOut(text) }
        }
        let stream = ExportStream(since: since, before: before) { date, id, limit in
            try service.cachedMessages(dialogID: target.id, after: MessagePosition(dateSent: date, id: id), limit: limit)
        }
        var writer = format.writer(me: service.me)
        var unsaved = 0
        let count = try stream.run(&writer, header: header, prepare: { message in
            let ids = ExportedMessage.senderIDs(of: message).filter { names[$0] == nil }
            if !ids.isEmpty {
                names.merge(service.displayNames(Set(ids))) { old, _ in old }
                for id in ids where names[id] == nil { names[id] = "user \(id)" }
            }
            let attachments = files.files(of: message)
            unsaved += attachments.filter { $0.savedPath == nil && $0.inline == nil }.count
            return ExportedMessage(message, me: service.me, names: names, attachments: attachments)
        }, output: write)
        try file?.commit()

        if count == 0 { context.io.warn("no messages to export" + (since != nil || before != nil ? " in that range" : "")) }
        if attachments == nil && unsaved > 0 && files.failedCount == 0 {
            context.io.warn("\(unsaved) attachment\(unsaved == 1 ? " was" : "s were") not saved; give --attachments DIR to save them")
        }
        if let output {
            var summary = "exported \(count) message\(count == 1 ? "" : "s") to \(output)"
            if let attachments, files.savedCount > 0 { summary += ", \(files.savedCount) file\(files.savedCount == 1 ? "" : "s") in \(attachments)" }
            context.io.warn(summary)
        }
        if files.failedCount > 0 {
            throw Failure(.failure, "\(files.failedCount) attachment\(files.failedCount == 1 ? "" : "s") could not be fetched; the export names \(files.failedCount == 1 ? "it" : "them") without a file")
        }
        return .ok
    }

    /// Bad input, refused before anything is fetched.
    private func check(format: ExportFormat, since: Int?, before: Int?, context: CommandContext) throws {
        if output == "" { throw context.usage("-o needs a file") }
        if let output, DownloadCommand.isDirectory(output) || output.hasSuffix("/") {
            throw context.usage("-o needs a file, and \(output) is a directory")
        }
        if attachments == "" { throw context.usage("--attachments needs a directory") }
        if !$inlineLimit.values.isEmpty && format != .html { throw context.usage("--inline-limit goes with --format html") }
        if attachments != nil && offline { throw context.usage("--attachments fetches files: it cannot be used with --offline") }
        if let since, let before, since >= before {
            throw context.usage("--since must be earlier than --before: no message is sent after one and before the other")
        }
    }

    /// DIR and its parents, when missing.
    private static func makeDirectory(_ path: String) throws {
        if DownloadCommand.isDirectory(path) { return }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw Failure(.invalidInput, "cannot make the directory \(path) for --attachments: \(error)")
        }
    }
}
