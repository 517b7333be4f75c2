import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI
import ChatIdentifiers

/// `chatctl outbox` lists undelivered messages, and how far the files of each got.
struct OutboxCommand: Command {
    static let configuration = CommandConfiguration(
        name: "outbox",
        abstract: "List messages not yet delivered.",
        discussion: """
            STATE says what a message waits for: 'to send', or for one with files \
            (send --attach) 'uploading N of M' until every file is up. ID names the \
            message for 'chatctl outbox drop'.

            In a pipe, a line a message, tab-separated, no header: id, dialog id, dialog name, when it was \
            queued (ISO 8601 UTC), tries, state, the message.
            """,
        subcommands: [OutboxFlushCommand.self, OutboxDropCommand.self],
        examples: [
            Example("What waits to be delivered, and for what", "chatctl outbox"),
            Example("As JSON", "chatctl outbox --json"),
        ])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .cacheOnly)
        let entries = try service.pendingOutbox()
        if json {
            let objects = entries.map { e -> String in
                JSONOutput.text(.object([
                    "client_message_id": .string(e.clientMessageID), "chat_dialog_id": .string(e.dialogID.rawValue),
                    "message": .string(e.text), "created_at": .string(TimeText.iso8601(Double(e.createdAt))),
                    "attempts": .int(e.attempts), "last_error": e.lastError.map(JSONValue.string) ?? .null,
                    "state": .string(e.isReadyToSend ? "ready" : "uploading"),
                    "uploads": .array(e.uploads.map(Self.json)),
                ]))
            }
            context.io.writeOut(JSONOutput.array(ofRaw: objects))
            return .ok
        }
        if entries.isEmpty { context.io.writeErr("chatctl: the outbox is empty\n"); return .ok }
        // The dialog by the name a person knows it by; the id where the cache has no such dialog.
        var dialogNames: [DialogID: String] = [:]
        for id in Set(entries.map(\.dialogID)) {
            if let named = service.namedDialog(id: id) { dialogNames[id] = DialogTitle.of(named, me: service.me) }
        }
        let layout = context.listingLayout
        var listing = Listing(["ID", "QUEUED", .inPipes("DIALOG ID"), "DIALOG", "TRIES", "STATE", "MESSAGE"])
        for e in entries {
            let queued = layout == .tabSeparated ? TimeText.iso8601(Double(e.createdAt))
                : TimeText.format(Double(e.createdAt), "%Y-%m-%d %H:%M:%S", in: .local)
            let dialog = dialogNames[e.dialogID] ?? (layout == .tabSeparated ? "" : e.dialogID.rawValue)
            listing.append([e.clientMessageID, queued, e.dialogID.rawValue, dialog, String(e.attempts),
                            Self.state(e), Self.text(e)])
        }
        context.io.writeOut(listing.render(layout))
        return .ok
    }

    /// "to send", or "uploading 2 of 3" (the file under way, of how many).
    static func state(_ entry: OutboxEntry) -> String {
        let (done, total) = entry.uploadsCompleted
        return done == total ? "to send" : "uploading \(done + 1) of \(total)"
    }

    /// The text, and its files as `history` shows attachments.
    static func text(_ entry: OutboxEntry) -> String {
        let text = TerminalText.sanitize(entry.text, newlines: .asSpaces)
        guard !entry.uploads.isEmpty else { return text }
        let labels = entry.uploads.map {
            AttachmentLabel.label(QBAttachment(type: $0.type, name: $0.name, size: Int($0.size)))
        }.joined(separator: " ")
        return entry.text == CachedMessage.attachmentOnlyText ? labels : text + " " + labels
    }

    /// One file of an entry: what it is, where its bytes wait, how far it got, its blob.
    static func json(_ upload: OutboxUpload) -> JSONValue {
        .object([
            "name": .string(upload.name), "size": .int(Int(upload.size)), "type": .string(upload.type),
            "content_type": .string(upload.contentType), "source": .string(upload.source), "file": .string(upload.file),
            "keeping": .string(upload.keeping.rawValue), "state": .string(upload.state.rawValue),
            "id": upload.blobUID.map(JSONValue.string) ?? .null, "blob_id": upload.blobID.map(JSONValue.int) ?? .null,
        ])
    }
}
