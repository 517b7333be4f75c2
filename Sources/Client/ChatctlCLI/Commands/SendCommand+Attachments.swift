#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
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
        var sources: [UploadSource] = []
        do {
            for path in paths { sources.append(try context.uploadSource(path, name: path == "-" ? name : nil, keepingIn: directory)) }
        } catch {
            for source in sources { if let spool = source.spoolPath { unlink(spool) } }
            throw error
        }
        let files = try AttachPipeline.keep(sources, in: directory)
        let session: MessagingSession
        let dialog: CachedDialog
        do {
            session = try context.messagingSession(source: .server)
            dialog = try session.service.resolve(self.dialog, source: .server, createPrivate: true)
        } catch {
            files.discard()
            throw error
        }
        let service = session.service
        let bars = UploadProgressBars(context: context, quiet: quiet)
        var queued = false, uploaded = false
        // Over chat, the connection is made only once the files are all up: a long upload would leave it idle.
        var engine: ChatEngine?
        var noEngine: (any Error)?
        let delivery: AttachPipeline.Delivery = !viaChat ? .rest : .handOff { entry throws(Failure) in
            do { engine = try context.chatEngine(for: session, settings: ChatEngine.Settings(), handler: sendingEvents(context, me: service.me)) } catch {
                noEngine = error
                throw Failure(.failure, "cannot connect to chat")
            }
            try engine?.connect(joining: [dialog])
            try engine?.resend([entry], to: dialog)
        }
        let steps = AttachPipeline.Steps(queued: { _ in queued = true }, progress: { bars.update($0) },
                                         uploaded: { _ in uploaded = true; bars.finish() })
        let message: CachedMessage?
        do {
            message = try AttachPipeline(service: service, owner: Int(getpid())).send(text, files: files, to: dialog.id,
                                                                                      delivery: delivery, steps: steps)
        } catch {
            bars.finish()
            if let noEngine { throw noEngine }
            // Not queued, too large for the server, or refused for good over REST: nothing waits in the outbox.
            let gone = error.kind == .invalidInput && !(uploaded && viaChat) || (uploaded && !viaChat && error.isPermanent)
            if !queued || gone { throw error }
            throw undelivered(error)
        }
        if let engine { return try finish(engine) }
        if let message, json { context.io.writeOut(JSONOutput.message(message, me: service.me) + "\n") }
        if let message, printID { context.io.writeOut(message.id + "\n") }
        return .ok
    }

    /// The entry stays in the outbox, its files with it: exit 3, or 4 when no later
    /// attempt of this command could succeed either (the session is gone).
    private func undelivered(_ error: Failure) -> Failure {
        if case .authentication = error.kind {
            return Failure(.authentication, "\(error.message); the message waits in the outbox", hint: error.hint)
        }
        return Failure.undelivered(1, delivered: 0, reason: error.message)
    }
}
