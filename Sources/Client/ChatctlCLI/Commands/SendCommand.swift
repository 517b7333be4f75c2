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
            interrupted upload is finished by 'chatctl outbox flush'. \
            An empty or blank message is refused before anything is sent (exit 2); \
            with --lines blank lines are skipped, and input with none but blank \
            lines is refused. A message over 32768 bytes goes as several, split at \
            line breaks, and a line on stderr says so; --no-split refuses it \
            instead (exit 2). A message the server refuses for good (not an \
            occupant, no such dialog) is reported with its reason and not kept in \
            the outbox. --reply-to quotes a message as the QuickBlox apps show \
            replies. --print-id prints the id of each message the server stored, \
            one a line.
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
    @Flag("no-split", help: "Refuse a message over 32768 bytes instead of sending it as several.")
    var noSplit: Bool
    @Option("reply-to", metavar: "MESSAGE_ID", help: "Send the message as a reply to this one (quoted as the QuickBlox apps do).")
    var replyTo: MessageID?
    @Flag("print-id", help: SharedHelp.printID)
    var printID: Bool
    @Flag("yes", short: "y", help: "Do not ask before sending a long message to a group as several (asked only on a terminal).")
    var yes: Bool

    /// What is sent: the parts of one message (split), or standard input line by line,
    /// its first line with words already read (so input of only blank lines is refused
    /// before any request).
    enum Input {
        case parts([String])
        case lines(LineReader, first: String)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if noChat && via == .chat { throw context.usage("--no-chat and --via chat cannot be used together") }
        let words = text
        if !$attach.values.isEmpty { return try sendAttachments($attach.values, words: words, context: context) }
        if name != nil { throw context.usage("--name names the file read with --attach -; give it with --attach -") }
        if lines && !words.isEmpty {
            throw context.usage("--lines reads standard input; give no TEXT with it")
        }
        if lines && replyTo != nil { throw context.usage("--reply-to quotes in one message; it cannot be used with --lines") }
        if json && printID { throw context.usage("--print-id and --json both print the messages sent; give one of them") }
        if words.isEmpty && context.io.stdinIsTerminal {
            throw context.usage("no message: give TEXT, or pipe it in (standard input is a terminal)")
        }
        let input = try readInput(words: words, context: context)
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let dialog = try service.resolve(self.dialog, source: .server, createPrivate: true)
        let quote = try replyTo.map { try service.quoting($0.text, as: .reply, lookingIn: dialog, replyingIn: dialog) }
        if case .parts(let parts) = input, let declined = try confirmSplit(into: parts.count, to: dialog, context: context) {
            return declined
        }
        if sendsViaChat { return try sendOverChat(session: session, dialog: dialog, input: input, quote: quote, context: context) }
        if !noChat { try refuseIfBlocked(dialog, session: session, context: context) }
        let (io, json, printID, me) = (context.io, json, printID, service.me)
        var sender = RESTSender(service: service, dialogID: dialog.id) { message in
            if json { io.writeOut(JSONOutput.message(message, me: me) + "\n") }
            if printID { io.writeOut(message.id + "\n") }
        }

        switch input {
        case .lines(var reader, let first):
            var line: String? = first
            while let text = line {
                if !BlankMessage.isBlank(text) {
                    for part in try parts(of: text, context: context) { try sender.send(part) }
                }
                line = reader.next()
            }
            if let error = reader.error {
                context.io.writeErr("chatctl: reading standard input failed: \(error)\n")
            }
            // What came before is sent; the rest of a stream that turned binary is not.
            if let unreadable = reader.unreadable {
                if let failure = sender.finish() { throw failure }
                throw Self.refusal(unreadable)
            }
        case .parts(let parts):
            for (index, part) in parts.enumerated() { try sender.send(part, custom: index == 0 ? quote ?? [:] : [:]) }
        }
        if let failure = sender.finish() { throw failure }
        return .ok
    }

    /// The input, read and checked before any request: a blank message is refused (exit 2)
    /// on every way in, as is one too long for --no-split.
    func readInput(words: [String], context: CommandContext) throws -> Input {
        if lines {
            var reader = LineReader(fd: 0)
            while let line = reader.next() {
                if !BlankMessage.isBlank(line) { return .lines(reader, first: line) }
            }
            if let unreadable = reader.unreadable { throw Self.refusal(unreadable) }
            if let error = reader.error { throw Failure(.failure, "reading standard input failed: \(error)") }
            throw context.usage("standard input has only blank lines, so it is blank: nothing to send")
        }
        let message = words.isEmpty ? try wholeInput(context) : words.joined(separator: " ")
        guard !BlankMessage.isBlank(message) else {
            throw context.usage(words.isEmpty ? "standard input is blank: nothing to send" : "the message is blank: nothing to send")
        }
        return .parts(try parts(of: message, context: context))
    }

    /// `text` as the messages it goes as: one, or over the limit several (said on stderr),
    /// or with --no-split a usage error. Parts with nothing but blanks are not sent.
    func parts(of text: String, context: CommandContext) throws -> [String] {
        let parts = MessageSplitter.split(text)
        guard parts.count > 1 else { return parts }
        let limit = MessageSplitter.defaultLimit
        if noSplit {
            throw context.usage("the message is \(text.utf8.count) bytes, over the limit of \(limit); it would go as \(parts.count) messages (leave out --no-split for that)")
        }
        context.io.writeErr("chatctl: the message was split into \(parts.count) messages (limit \(limit) bytes); --no-split refuses instead\n")
        return parts.filter { !BlankMessage.isBlank($0) }
    }

    /// A message that goes to a group as several is asked about first when a person typed the
    /// command (stdin and stderr terminals), as `me delete` asks: everyone in the group
    /// would read them all. A pipe never asks; --yes does not either.
    /// nil: go on and send; else how the command ends (^C at the question ends as ^C does).
    func confirmSplit(into count: Int, to dialog: CachedDialog, context: CommandContext) throws -> ExitCode? {
        guard Self.asksBeforeSending(count, to: dialog.type, yes: yes, stdinIsTerminal: context.io.stdinIsTerminal,
                                     stderrIsTerminal: context.io.stderrIsTerminal) else { return nil }
        let question = "The message is long: send it as \(count) messages to \(DialogsShowCommand.label(dialog)), which everyone there reads? [y/N] "
        switch context.io.ask(question, echo: true) {
        case .line(let answer) where ["y", "yes"].contains(answer.lowercased()):
            return nil
        case .interrupted:
            raise(SIGINT)
            return .interrupted
        default:
            throw Failure(.invalidInput, "not sent", hint: "--yes sends it without asking; --no-split refuses a long message")
        }
    }

    /// Whether `confirmSplit` asks: a person at a terminal, a group, more than one message.
    static func asksBeforeSending(_ count: Int, to type: DialogType, yes: Bool, stdinIsTerminal: Bool, stderrIsTerminal: Bool) -> Bool {
        count > 1 && type != .private && !yes && stdinIsTerminal && stderrIsTerminal
    }

    /// Input that is not text, named where it stops being text: it goes as a file, not as messages.
    static func refusal(_ unreadable: UnreadableText) -> Failure {
        Failure(.invalidInput, "standard input is not text: \(unreadable.place)", hint: "send binary data as a file with --attach -")
    }

    /// One message: REST is one round trip. A stream: chat, acknowledged in batches.
    var sendsViaChat: Bool { (via ?? (lines && !noChat ? .chat : .rest)) == .chat }

    /// All of standard input as one message (without its final line break); binary data is refused.
    func wholeInput(_ context: CommandContext) throws -> String {
        guard let bytes = context.io.readAllInput() else {
            throw Failure(.failure, "cannot read standard input")
        }
        if let unreadable = UnreadableText.find(in: bytes) { throw Self.refusal(unreadable) }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

extension SendCommand {
    /// Sends over chat through the outbox, with a chat engine on this thread: stdin is read
    /// as it arrives, between turns of the connection, and every line is queued before it is
    /// sent. A stream outlives a cut connection (docs/protocol.md §7): it reconnects and resends.
    /// `quote`: a reply's parameters (--reply-to), sent with the first part.
    func sendOverChat(session: MessagingSession, dialog: CachedDialog, input: Input, quote: [String: String]?,
                      context: CommandContext) throws -> ExitCode {
        var settings = ChatEngine.Settings()
        settings.reconnect = lines ? .stream : .never
        if lines { settings.maximumRefreshInterval = try context.sessionRefreshOverride() }
        if let window = try context.sendWindowOverride() { settings.window = window }
        let engine = try context.chatEngine(for: session, settings: settings, handler: sendingEvents(context, me: session.service.me))
        try engine.connect(joining: [dialog])
        try refuseIfBlocked(dialog, engine: engine)
        switch input {
        case .parts(let parts):
            if let quote {
                // Queued with its parameters, then sent as entries, as the chat view sends a reply.
                for (index, part) in parts.enumerated() {
                    let id = try session.service.enqueue(part, to: dialog.id, owner: Int(getpid()), custom: index == 0 ? quote : [:])
                    try engine.perform(.deliver(clientID: id, dialogID: dialog.id))
                }
            } else {
                try engine.perform(.send(parts, dialogID: dialog.id))
            }
        case .lines(var reader, let first):
            var waiting = [first]
            while true {
                // Each read is one batch: one outbox transaction, one write, one ack asked for.
                let parts = try waiting.filter { !BlankMessage.isBlank($0) }.flatMap { try self.parts(of: $0, context: context) }
                if !parts.isEmpty { try engine.perform(.send(parts, dialogID: dialog.id)) }
                // Input paused: what was acknowledged leaves the outbox now, not at the next thousand.
                engine.pump(settling: parts.isEmpty)
                engine.waitForRoom()
                if reader.atEnd { break }
                waiting = reader.lines(waitingUpTo: 5)
            }
            // The lines before one that is not text are delivered; it and the rest are not.
            if let unreadable = reader.unreadable {
                _ = try finish(engine)
                throw Self.refusal(unreadable)
            }
        }
        return try finish(engine)
    }

    /// Before a private message goes over REST, which privacy lists do not govern: a brief chat
    /// connection asks whether either blocks the other (`BlockProbe`); nothing is queued when one
    /// does. Chat out of reach, or not answering, refuses nothing (the message goes as before).
    func refuseIfBlocked(_ dialog: CachedDialog, session: MessagingSession, context: CommandContext) throws {
        guard dialog.type == .private, let peer = dialog.occupantIDs.first(where: { $0 != session.service.me }) else { return }
        let outcome = try? context.overChat(session) { link throws(Failure) in
            try BlockProbe.run(over: link, peer: peer, dialogID: dialog.id, timeout: CommandContext.blockListSeconds)
        }
        switch outcome {
        case .youBlock?: throw youBlock(peer, service: session.service)
        case .theyBlock?: throw session.service.blockedFailure(by: peer)
        case .clear?, nil: return
        }
    }

    func youBlock(_ peer: Int, service: MessagingService) -> Failure {
        let user = try? service.user(named: String(peer))
        let name = service.displayNames([peer])[peer] ?? "user \(peer)"
        return Failure(.invalidInput, "you have blocked \(name); the message was not sent",
                       hint: "'chatctl unblock \(user.map { "@" + $0.login } ?? String(peer))' first")
    }

    /// A private dialog's other person whom the user blocks is refused before anything is
    /// queued (exit 2): their answers would not reach the user. A list that cannot be read
    /// refuses nothing; the server still applies it.
    func refuseIfBlocked(_ dialog: CachedDialog, engine: ChatEngine) throws {
        guard dialog.type == .private, let peer = dialog.occupantIDs.first(where: { $0 != engine.service.me }),
              let list = try? engine.readBlockList(), list.blockedUserIDs.contains(peer) else { return }
        throw youBlock(peer, service: engine.service)
    }

    /// What a sending command prints of its engine's events: with --json each message as the
    /// server acknowledges it; with --lines the connection's losses and returns, and the session's upkeep, on stderr.
    func sendingEvents(_ context: CommandContext, me: Int) -> (ChatEngineEvent) -> Void {
        let (io, json, printID, lines) = (context.io, json, printID, lines)
        return { event in
            switch event {
            case .delivered(let messages) where json:
                io.writeOut(messages.map { JSONOutput.message($0, me: me) + "\n" }.joined())
            case .delivered(let messages) where printID:
                io.writeOut(messages.map { $0.id + "\n" }.joined())
            case .connection(let change) where lines:
                switch change {
                case .lost, .retrying(_, _, _?), .connected(_, true):
                    io.writeErr("chatctl: \(TerminalText.sanitize(change.description, newlines: .asSpaces))\n")
                default:
                    break
                }
            // A stream outlives its token: keeping the session, or failing to, is said too.
            case .notice(let notice) where lines:
                switch notice {
                case .failed(.keepSessionAlive, _), .sessionKeptAlive:
                    io.writeErr("chatctl: \(TerminalText.sanitize(notice.description, newlines: .asSpaces))\n")
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
        // Refused for good: said with the server's reason; it is not in the outbox.
        if engine.undeliveredCount == 0, let failure, failure.isPermanent { throw failure }
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
    /// Where the input stopped being text: no line from there on is handed out.
    private(set) var unreadable: UnreadableText?
    /// Bytes and lines handed out before `start`, so that `unreadable` counts over the whole input.
    private var bytesBefore = 0
    private var linesBefore = 0

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
        guard unreadable == nil else { return nil }
        let end: Int
        if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            end = newline
        } else {
            guard eof && start < buffer.count else { return nil }
            end = buffer.count
        }
        var line = buffer[start..<end]
        if let found = UnreadableText.find(in: line, bytesBefore: bytesBefore, linesBefore: linesBefore) {
            unreadable = found
            eof = true
            start = buffer.count
            return nil
        }
        bytesBefore += end - start + 1
        linesBefore += 1
        start = min(end + 1, buffer.count)
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
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
