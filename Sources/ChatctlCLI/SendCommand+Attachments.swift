#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import MessageCache
import Messaging
import Transfers

/// `send --attach`: files, then one message that carries them, through the outbox
/// (docs/protocol.md §8). Every file is opened, judged and kept before anything is
/// sent or queued, so bad input (exit 2) leaves nothing behind; the outbox entry and
/// its files are written before the first byte is uploaded; a failure after that
/// leaves the entry for `outbox flush` (exit 3), except a file larger than the
/// server takes, which can never go: its entry is removed (exit 2).
extension SendCommand {
    func sendAttachments(_ paths: [String], words: [String], context: CommandContext) throws -> ExitCode {
        if lines { throw context.usage("--attach sends one message; it does not go with --lines") }
        let readsInput = paths.filter { $0 == "-" }.count
        if readsInput > 1 { throw context.usage("--attach - can be given once: standard input is read once") }
        if name != nil && readsInput == 0 {
            throw context.usage("--name names the file read with --attach -; give it with --attach -")
        }
        // The server refuses such a name only once the message is queued (422).
        if let name, name.isEmpty || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw context.usage("--name must be a file name: not empty, no control characters")
        }
        if readsInput > 0 && context.io.stdinIsTerminal {
            throw context.usage("--attach - reads standard input, which is a terminal: pipe the file in")
        }
        if paths.contains(where: \.isEmpty) {
            throw context.usage("--attach needs a path, or - for standard input")
        }
        let text = words.joined(separator: " ")
        if MessageSplitter.split(text).count > 1 {
            throw context.usage("with --attach, TEXT must fit in one message (\(MessageSplitter.defaultLimit / 1024) KiB)")
        }
        let viaChat = sendsViaChat

        // Every file opened, judged and kept where a later process can read it.
        let directory = try context.outboxFilesDirectory()
        var uploads: [OutboxUpload] = []
        var ownCopies: [String] = []
        var queued = false
        defer { if !queued { for path in ownCopies { unlink(path) } } }
        for (position, path) in paths.enumerated() {
            let source = try context.uploadSource(path, name: path == "-" ? name : nil, keepingIn: directory)
            if let spool = source.spoolPath { ownCopies.append(spool) }
            let kept = try transferring { () throws(TransferError) in try source.keep(in: directory) }
            if kept.isOwnCopy { ownCopies.append(kept.path) }
            uploads.append(OutboxUpload(position: position, source: source, kept: kept))
        }

        let session = try context.messagingSession(source: .server)
        let service = session.service
        let dialog = try messaging { () throws(MessagingError) in try service.resolve(self.dialog, source: .server, createPrivate: true) }
        let owner = Int(getpid())
        let entry = try messaging { () throws(MessagingError) in try service.enqueue(text, uploads: uploads, to: dialog.id, owner: owner) }
        queued = true

        let bars = UploadProgressBars(context: context, quiet: quiet)
        let ready: OutboxEntry
        do {
            ready = try OutboxUploader(service: service, owner: owner).finish(entry) { bars.update($0, $1) }
            bars.finish()
        } catch {
            bars.finish()
            if case .invalidInput = error.kind {
                // Too large for the server, say: it can never go as queued.
                _ = try? service.cache.discard(clientMessageID: entry.clientMessageID)
                throw CommandError.messaging(error)
            }
            throw undelivered(entry, error: error, service: service, owner: owner)
        }
        if viaChat { return try deliverOverChat(ready, to: dialog, session: session, context: context) }
        let message: CachedMessage
        do {
            message = try service.deliverViaREST(clientMessageID: ready.clientMessageID, text: ready.text,
                                                 attachments: ready.attachments, dialogID: dialog.id)
        } catch {
            if case .invalidInput = error.kind { throw CommandError.messaging(error) }
            throw undelivered(ready, error: error, service: service, owner: owner)
        }
        if json { context.io.writeOut(JSONOutput.message(message, me: service.me) + "\n") }
        return .ok
    }

    /// The message over chat, once its files are all up (the connection is made
    /// only then: a long upload would leave it idle).
    private func deliverOverChat(_ entry: OutboxEntry, to dialog: CachedDialog, session: MessagingSession,
                                 context: CommandContext) throws -> ExitCode {
        let service = session.service
        let owner = Int(getpid())
        let link: ChatLink
        do { link = try context.chatLink(for: session) } catch {
            service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner,
                                error: MessagingError(.failure, "cannot connect to chat"))
            throw error
        }
        let outbox = ChatOutbox(link: link, service: service, owner: owner)
        if json { outbox.onDelivered = { [io = context.io, me = service.me] in io.writeOut(JSONOutput.message($0, me: me) + "\n") } }
        do {
            try link.connect()
            try link.joinRooms(of: [dialog])
            try outbox.resend([entry], to: dialog)
        } catch {
            throw undelivered(entry, error: error, service: service, owner: owner)
        }
        let failure = outbox.finish()
        guard outbox.undelivered > 0 else { return .ok }
        throw undeliveredError(outbox.undelivered, delivered: outbox.delivered, reason: failure?.message ?? "not acknowledged")
    }

    /// The entry stays in the outbox, its files with it: exit 3, or 4 when no later
    /// attempt of this command could succeed either (the session is gone).
    private func undelivered(_ entry: OutboxEntry, error: MessagingError, service: MessagingService, owner: Int) -> CommandError {
        service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error)
        if case .authentication = error.kind {
            return .messaging(MessagingError(.authentication, "\(error.message); the message waits in the outbox", hint: error.hint))
        }
        return undeliveredError(1, delivered: 0, reason: error.message)
    }
}
