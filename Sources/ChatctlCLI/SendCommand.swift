#if canImport(Glibc)
import Glibc
#endif
import MessageCache
import Messaging

/// `chatctl send DIALOG [TEXT…]`: the arguments, all of stdin as one message,
/// or with `--lines` one message per line as each line arrives. Every message
/// is in the outbox before it is sent and leaves it only once delivered.
struct SendCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = context.parsed
        let words = Array(parsed.arguments("TEXT"))
        let lines = parsed.flag("lines")
        if lines && !words.isEmpty {
            throw CommandError.usage("--lines reads standard input; give no TEXT with it", path: parsed.path)
        }
        if words.isEmpty && context.io.stdinIsTerminal {
            throw CommandError.usage("no message: give TEXT, or pipe it in (standard input is a terminal)", path: parsed.path)
        }
        switch parsed.value("via") {
        case nil, "rest": break
        case "chat": throw CommandError.usage("--via chat is not available yet (issue #3); use rest", path: parsed.path)
        case let other?: throw CommandError.usage("--via must be chat or rest, not '\(other)'", path: parsed.path)
        }
        let reference = try messaging { () throws(MessagingError) in try DialogReference(parsing: parsed.arguments("DIALOG").first ?? "") }
        let conversations = try context.conversations(offline: false)
        let dialog = try messaging { () throws(MessagingError) in try conversations.resolve(reference, offline: false, createPrivate: true) }
        var sender = OutboxSender(conversations: conversations, dialogID: dialog.id, context: context)

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
            guard let bytes = context.io.readAllInput() else {
                throw CommandError.messaging(MessagingError(.failure, "cannot read standard input"))
            }
            var text = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            guard !text.isEmpty else { throw CommandError.usage("standard input was empty: nothing to send", path: parsed.path) }
            for part in MessageSplitter.split(text) { try sender.send(part) }
        }
        return try sender.finish()
    }
}

/// Enqueues then delivers, one message at a time. After the first failure it
/// stops trying (every further message would wait for the same timeout) but
/// keeps queueing, so nothing read is lost.
struct OutboxSender {
    let conversations: Conversations
    let dialogID: String
    let context: CommandContext
    let owner = Int(getpid())
    var delivered = 0
    var undelivered = 0
    var firstError: MessagingError?

    init(conversations: Conversations, dialogID: String, context: CommandContext) {
        self.conversations = conversations; self.dialogID = dialogID; self.context = context
    }

    mutating func send(_ text: String) throws {
        let id = try messaging { () throws(MessagingError) in try conversations.enqueue(text, to: dialogID, owner: owner) }
        if firstError != nil {
            conversations.noteFailure(clientMessageID: id, owner: owner, error: firstError!)
            undelivered += 1
            return
        }
        do {
            let message = try conversations.deliverViaREST(clientMessageID: id, text: text, dialogID: dialogID)
            delivered += 1
            if context.wantsJSON { context.io.writeOut(message.rawJSON + "\n") }
        } catch {
            if case .invalidInput = error.kind { throw CommandError.messaging(error) }
            conversations.noteFailure(clientMessageID: id, owner: owner, error: error)
            firstError = error
            undelivered += 1
        }
    }

    func finish() throws -> ExitCode {
        guard undelivered > 0, let error = firstError else { return .ok }
        let noun = undelivered == 1 ? "message was" : "messages were"
        throw CommandError.messaging(MessagingError(.undelivered(undelivered),
            "\(undelivered) \(noun) not delivered (\(error.message)); \(delivered) delivered",
            hint: "they are in the outbox: run 'chatctl outbox flush' later"))
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

    mutating func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                start = newline + 1
                return String(decoding: line, as: UTF8.self)
            }
            if eof {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return line
            }
            if start > 65536 { buffer.removeFirst(start); start = 0 }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                error = String(cString: strerror(errno)); eof = true
            } else if n == 0 {
                eof = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}
