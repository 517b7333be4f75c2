#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl send DIALOG [TEXT…]`: the arguments, all of stdin as one message,
/// or with `--lines` one message per line as each line arrives. Every message
/// is in the outbox before it is sent and leaves it only once delivered.
struct SendCommand: Command {
    static let configuration = CommandConfiguration(
        name: "send",
        abstract: "Send a message: the arguments, or standard input.",
        discussion: """
            Without TEXT, standard input is sent: all of it as one message, or with \
            --lines one message per line as each line arrives. Every message goes \
            to the outbox first and leaves it only when the server has it; exit 3 \
            means some are still there ('chatctl outbox flush' delivers them). \
            With --attach, each file is uploaded (its type judged from its content), \
            then one message carries them all, with TEXT or, without it, \
            '[attachment]'; standard input is read only for --attach -. The files \
            are kept in the outbox with the message until it is delivered, so an \
            interrupted upload is finished by 'chatctl outbox flush'.
            """,
        examples: [
            Example("Send bob a message", "chatctl send @bob 'lunch at noon?'"),
            Example("Send a file, with a caption", "chatctl send ops --attach report.pdf 'the report'"),
            Example("Send a command's output as one message", "uptime | chatctl send ops"),
            Example("One message per line, as each line arrives", "tail -f app.log | chatctl send ops --lines"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Arguments("TEXT", help: "The message; words are joined with spaces.")
    var text: [String]
    @Flag("lines", help: "One message per line of standard input.")
    var lines: Bool
    @Flag("no-chat", help: "Send over REST only, --lines too (default: REST for one message, chat for --lines).")
    var noChat: Bool
    /// The old spelling: `--via rest` is `--no-chat`; `--via chat` sends one message over chat.
    @Option("via", metavar: "WAY", help: "chat or rest.", hidden: true)
    var via: SendRoute?
    @Option("attach", metavar: "PATH", help: "Attach a file, - for standard input; give it again for more.",
            completion: .file, repeatable: true)
    var attach: String?
    @Option("name", metavar: "NAME", help: "The file name of --attach - (default: stdin).")
    var name: String?
    @Flag("quiet", short: "q", help: "No progress bar on stderr.")
    var quiet: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        if noChat && via == .chat { throw context.usage("--no-chat and --via chat cannot be used together") }
        let words = text
        if !$attach.values.isEmpty { return try sendAttachments($attach.values, words: words, context: context) }
        if name != nil { throw context.usage("--name names the file read with --attach -; give it with --attach -") }
        if lines && !words.isEmpty {
            throw context.usage("--lines reads standard input; give no TEXT with it")
        }
        if words.isEmpty && context.io.stdinIsTerminal {
            throw context.usage("no message: give TEXT, or pipe it in (standard input is a terminal)")
        }
        let viaChat = sendsViaChat
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let dialog = try service.resolve(self.dialog, source: .server, createPrivate: true)
        if viaChat { return try sendOverChat(session: session, dialog: dialog, words: words, context: context) }
        let (io, json, me) = (context.io, json, service.me)
        var sender = RESTSender(service: service, dialogID: dialog.id) { message in
            if json { io.writeOut(JSONOutput.message(message, me: me) + "\n") }
        }

        if lines {
            var reader = LineReader(fd: 0)
            while let line = reader.next() {
                if line.isEmpty { continue }
                for part in MessageSplitter.split(line) { try sender.send(part) }
            }
            if let error = reader.error {
                context.io.writeErr("chatctl: reading standard input failed: \(error)\n")
            }
        } else if !words.isEmpty {
            for part in MessageSplitter.split(words.joined(separator: " ")) { try sender.send(part) }
        } else {
            for part in MessageSplitter.split(try wholeInput(context)) { try sender.send(part) }
        }
        if let failure = sender.finish() { throw failure }
        return .ok
    }

    /// One message: REST is one round trip. A stream: chat, acknowledged in batches.
    var sendsViaChat: Bool { (via ?? (lines && !noChat ? .chat : .rest)) == .chat }

    /// All of standard input as one message (without its final line break).
    func wholeInput(_ context: CommandContext) throws -> String {
        guard let bytes = context.io.readAllInput() else {
            throw Failure(.failure, "cannot read standard input")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        guard !text.isEmpty else { throw context.usage("standard input was empty: nothing to send") }
        return text
    }
}

extension SendCommand {
    /// Sends over chat through the outbox, with a chat engine on this thread: stdin is read
    /// as it arrives, between turns of the connection, and every line is queued before it is
    /// sent. A stream outlives a cut connection (docs/protocol.md §7): it reconnects and resends.
    func sendOverChat(session: MessagingSession, dialog: CachedDialog, words: [String], context: CommandContext) throws -> ExitCode {
        var settings = ChatEngine.Settings()
        settings.reconnect = lines ? .stream : .never
        if let window = try context.sendWindowOverride() { settings.window = window }
        let engine = try context.chatEngine(for: session, settings: settings, handler: sendingEvents(context, me: session.service.me))
        try engine.connect(joining: [dialog])
        if !words.isEmpty {
            try engine.perform(.send(MessageSplitter.split(words.joined(separator: " ")), dialogID: dialog.id))
        } else if lines {
            var reader = LineReader(fd: 0)
            while !reader.atEnd {
                // Each read is one batch: one outbox transaction, one write, one ack asked for.
                let parts = reader.lines(waitingUpTo: 5).filter { !$0.isEmpty }.flatMap { MessageSplitter.split($0) }
                if !parts.isEmpty { try engine.perform(.send(parts, dialogID: dialog.id)) }
                // Input paused: what was acknowledged leaves the outbox now, not at the next thousand.
                engine.pump(settling: parts.isEmpty)
                engine.waitForRoom()
            }
        } else {
            try engine.perform(.send(MessageSplitter.split(try wholeInput(context)), dialogID: dialog.id))
        }
        return try finish(engine)
    }

    /// What a sending command prints of its engine's events: with --json each message as the
    /// server acknowledges it; with --lines the connection's losses and returns on stderr.
    func sendingEvents(_ context: CommandContext, me: Int) -> (ChatEngineEvent) -> Void {
        let (io, json, lines) = (context.io, json, lines)
        return { event in
            switch event {
            case .delivered(let messages) where json:
                io.writeOut(messages.map { JSONOutput.message($0, me: me) + "\n" }.joined())
            case .connection(let change) where lines:
                switch change {
                case .lost, .retrying(_, _, _?), .connected(_, true):
                    io.writeErr("chatctl: \(TerminalText.sanitize(change.description, newlines: .asSpaces))\n")
                default:
                    break
                }
            default:
                break
            }
        }
    }

    /// Waits for the last acks: exit 0, or 3 with what still waits in the outbox.
    func finish(_ engine: ChatEngine) throws -> ExitCode {
        let failure = engine.finish()
        guard engine.undeliveredCount > 0 else { return .ok }
        throw Failure.undelivered(engine.undeliveredCount, delivered: engine.deliveredCount, reason: failure?.message ?? "not acknowledged")
    }
}

/// Lines from a file descriptor as they arrive (no waiting for more input
/// than one line), without the line break.
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    private(set) var error: String?

    init(fd: Int32) { self.fd = fd }

    /// True once end of input was seen and every line handed out.
    var atEnd: Bool { eof && start >= buffer.count }

    /// The complete lines available now, waiting at most `milliseconds` for
    /// input; at end of input also the unterminated last line.
    mutating func lines(waitingUpTo milliseconds: Int32) -> [String] {
        var result: [String] = []
        if !eof {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, milliseconds) > 0 { fill() }
        }
        while let line = takeLine() { result.append(line) }
        if start > 65536 { buffer.removeFirst(start); start = 0 }
        return result
    }

    /// The next complete line in the buffer (without its line break); at end
    /// of input also the unterminated rest; nil when there is none yet.
    private mutating func takeLine() -> String? {
        if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            return String(decoding: line, as: UTF8.self)
        }
        guard eof && start < buffer.count else { return nil }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        return line
    }

    /// One read(2): appends what came, or notes end of input / an error.
    private mutating func fill() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { error = String(cString: strerror(errno)); eof = true }
            else if n == 0 { eof = true }
            else { buffer.append(contentsOf: chunk[0..<n]) }
            return
        }
    }

    /// The next line, waiting for it as long as it takes; nil at end of input.
    mutating func next() -> String? {
        while true {
            if let line = takeLine() { return line }
            if eof { return nil }
            if start > 65536 { buffer.removeFirst(start); start = 0 }
            fill()
        }
    }
}
