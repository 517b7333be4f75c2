#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import AuthFlow
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl listen [DIALOG…]`: messages as they arrive, and dialogs you are added to.
struct ListenCommand: Command {
    static let configuration = CommandConfiguration(
        name: "listen",
        abstract: "Print messages as they arrive.",
        discussion: """
            Follows the given dialogs (default: all of yours), one line per message \
            or JSON Lines with --json; every message is also cached. What you send \
            from another device is shown too, with 'you' as the sender (in JSON, \
            "outgoing": true). When someone adds you to a dialog, it says so on \
            standard error ('chatctl: alice added you to ops') and, following all \
            your dialogs, follows the new one at once. A contact request, and an \
            answer to yours, is a line on standard error too ('chatctl: alice asks \
            to be your contact …'); with --json, an event line on standard output \
            ({"event":"contact_request","user":{…}}; docs/cli-output.md). Once connected \
            it says 'chatctl: listening to N dialogs' on standard error, which a \
            script can wait for. Reconnects by \
            itself and fills any gap from history, without duplicates. It keeps \
            its session alive for as long as it runs; a session the server has \
            forgotten is renewed with the password (--password-file, \
            $CHATCTL_PASSWORD or a prompt), else listen exits 4. With --exec, \
            runs CMD (through /bin/sh) for each message from others: the text on its standard \
            input, the fields in CHATCTL_MESSAGE_ID, CHATCTL_DIALOG_ID, \
            CHATCTL_DIALOG_NAME, CHATCTL_SENDER_ID, CHATCTL_SENDER_NAME and \
            CHATCTL_DATE_SENT. With --download DIR, the attachments of messages \
            from others are saved into DIR as they arrive, each under its sender's \
            name made safe and never over a file that exists (cat.jpg, then \
            cat-2.jpg); --json adds their paths as "downloaded" (null for one that \
            could not be saved, which stderr explains) and --exec gets them in \
            CHATCTL_ATTACHMENTS, one a line. With --notify, each message from others \
            outside muted dialogs is also a desktop notification (through the D-Bus session's \
            notification service; without one, a line on standard error says so and listen \
            goes on). Each message that asks for markers is answered \
            with a 'received' marker. On a terminal a printed message counts as \
            read: it is marked read and its sender gets a 'displayed' marker; \
            into a pipe or a file nothing is marked read.
            """,
        examples: [
            Example("Print messages as they arrive, in all your dialogs", "chatctl listen"),
            Example("Wait at most a minute for one message in the dialog with bob", "chatctl listen @bob -n 1 --timeout 1m"),
            Example("Save the files sent to ops as they arrive", "chatctl listen ops --download ~/Downloads"),
            Example("Run a command for each message: the text on its standard input", "chatctl listen --exec 'notify-send \"$CHATCTL_SENDER_NAME\" \"$(cat)\"'"),
        ])

    @Arguments("DIALOG", help: "Dialogs to follow (default: all).")
    var dialogs: [DialogReference]
    @Option("limit", short: "n", metavar: "N", help: "Exit after N messages from others.", range: 1..., aliases: ["count"])
    var count: Int?
    @Option("timeout", metavar: "DURATION", help: "Exit after this long, e.g. 30s, 5m, 2h (a bare number is seconds).")
    var timeout: Duration?
    @Option("exec", metavar: "CMD", help: "Run CMD for each message.")
    var exec: String?
    @Option("download", metavar: "DIR", help: "Save the attachments of others' messages into DIR as they arrive.",
            completion: .directory)
    var download: String?
    @Flag("notify", help: "Post a desktop notification for each message from others, except in muted dialogs.")
    var notify: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        if let download { try Self.checkDirectory(download, context: context) }
        let refreshEvery = try context.sessionRefreshOverride()
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let saver = download.map { AttachmentSaver(directory: $0, api: service.api, io: context.io) }
        let dialogIDs = try dialogs.map { reference in
            try service.resolve(reference, source: .server, createPrivate: false).id
        }
        context.endExpiredMutes(service)
        let notifications = notify ? ListenNotifications.start(service: service, context: context) : nil
        var settings = ChatEngine.Settings()
        settings.dialogs = dialogIDs.isEmpty ? .all : .only(dialogIDs)
        settings.reconnect = .forever
        settings.handLimit = count
        settings.maximumRefreshInterval = refreshEvery
        // A person reading the terminal has seen what is printed; a pipe is not a person.
        settings.marksHeardRead = context.io.stdoutIsTerminal
        let io = context.io
        // A hook that runs chatctl acts as this same account.
        var environment = context.environment
        environment["CHATCTL_CONFIG"] = session.config.path
        environment["CHATCTL_STATE_DIR"] = SessionStore.resolveDirectory(explicit: context.globals.stateDir, environment: context.environment)
        environment["CHATCTL_PROFILE"] = try context.profile()?.name
        var names: [Int: String] = [:]
        var titles: [DialogID: String] = [:]
        func title(of dialogID: DialogID) -> String {
            if titles[dialogID] == nil, let named = service.namedDialog(id: dialogID) { titles[dialogID] = DialogTitle.of(named, me: service.me) }
            return titles[dialogID] ?? dialogID.rawValue
        }
        // What a batch of messages prints goes out in one write (at its end, and before a hook
        // runs): a write a message was a tenth of a burst's time.
        var printed = ""
        func flush() {
            guard !printed.isEmpty else { return }
            io.writeOut(printed)
            printed.removeAll(keepingCapacity: true)
        }
        func heard(_ batch: [HeardMessage]) {
            for item in batch {
                let message = item.message
                let sender = names[message.senderID] ?? "user \(message.senderID)"
                let title = title(of: message.dialogID)
                // Saved before the message is shown, so that its line can say where.
                let downloaded = item.outgoing ? nil : saver?.save(message)
                printed += json ? ListenOutput.json(message, outgoing: item.outgoing, me: service.me, downloaded: downloaded)
                                : ListenOutput.line(message, title: title, sender: sender, outgoing: item.outgoing, names: names)
                if printed.utf8.count >= 65536 { flush() }
                notifications?.heard(item, sender: sender, dialogTitle: title)
                if let command = exec, !item.outgoing {
                    flush()
                    MessageHook.run(command, message: message, senderName: sender, dialogName: title,
                                    attachments: downloaded.map { $0.compactMap { $0 } }, inherited: environment, io: io)
                }
            }
            flush()
        }
        let engine = try context.chatEngine(for: session, settings: settings) { event in
            switch event {
            case .names(let learnt):
                names.merge(learnt) { $1 }
            case .heard(let batch):
                heard(batch)
            case .connection(let change):
                // The waits themselves are not news; what failed, and the connection's ups, are.
                if case .connecting = change { return }
                if case .retrying(_, _, nil) = change { return }
                io.writeErr("chatctl: \(TerminalText.sanitize(change.description, newlines: .asSpaces))\n")
            case .dialogNotice(let notice):
                titles[notice.dialog.id] = DialogTitle.of(notice.dialog, me: service.me, names: names)
                let actor = notice.actorID.map { names[$0] ?? "user \($0)" }
                io.writeErr("chatctl: \(ListenOutput.notice(notice, actor: actor, title: titles[notice.dialog.id] ?? notice.dialog.id.rawValue))\n")
            case .notice(let notice):
                // Notices quote servers and other users: sanitized like everything else they send.
                io.writeErr("chatctl: \(TerminalText.sanitize(notice.description, newlines: .asSpaces))\n")
            case .contact(let user, let news):
                // Requests and answers are events of a script's stream; on a terminal, lines like the dialogs' notices.
                let known = service.cachedUser(id: user)
                if json {
                    let shown = ContactText.user(id: user, login: known?.login, fullName: known?.fullName)
                    if let line = ContactText.listenJSON(news, user: shown) { printed += line; flush() }
                } else {
                    io.writeErr("chatctl: \(ContactText.line(news, name: names[user] ?? "user \(user)", login: known?.login))\n")
                }
            default:
                break
            }
        }
        defer { flush() }
        try engine.run(until: deadline)
        return .ok
    }

    /// --download's DIR must be a directory we may write in, checked before listening.
    static func checkDirectory(_ path: String, context: CommandContext) throws {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else {
            throw context.usage("--download \(path): no such directory")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw context.usage("--download \(path): not a directory") }
        guard access(path, W_OK | X_OK) == 0 else { throw context.usage("--download \(path): not allowed to write in it") }
    }
}

/// `--exec`: one run of `/bin/sh -c CMD` per message, the text on its stdin
/// and the fields in CHATCTL_* variables; waited for before the next message.
enum MessageHook {
    /// `inherited`: chatctl's own environment with the account's CHATCTL_CONFIG,
    /// CHATCTL_STATE_DIR and CHATCTL_PROFILE; other CHATCTL_* values are left out.
    /// `attachments` (with --download): the paths saved, in CHATCTL_ATTACHMENTS.
    static func run(_ command: String, message: CachedMessage, senderName: String, dialogName: String,
                    attachments: [String]? = nil, inherited: [String: String], io: any TerminalIO) {
        var environment = [
            "CHATCTL_MESSAGE_ID=\(message.id)", "CHATCTL_DIALOG_ID=\(message.dialogID)",
            "CHATCTL_DIALOG_NAME=\(dialogName)", "CHATCTL_SENDER_ID=\(message.senderID)",
            "CHATCTL_SENDER_NAME=\(senderName)", "CHATCTL_DATE_SENT=\(message.dateSent)",
        ]
        if let attachments { environment.append("CHATCTL_ATTACHMENTS=" + attachments.joined(separator: "\n")) }
        let account: Set = ["CHATCTL_CONFIG", "CHATCTL_STATE_DIR", "CHATCTL_PROFILE"]
        for (name, value) in inherited where !name.hasPrefix("CHATCTL_") || account.contains(name) {
            environment.append("\(name)=\(value)")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { io.writeErr("chatctl: --exec: cannot make a pipe\n"); return }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addclose(&actions, fds[0])
        defer { posix_spawn_file_actions_destroy(&actions) }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        close(fds[0])
        guard spawned == 0 else { close(fds[1]); io.writeErr("chatctl: --exec: cannot run /bin/sh\n"); return }
        let text = Array(message.text.utf8)
        var offset = 0
        while offset < text.count {
            let n = text[offset...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; break }
            offset += n
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status >> 8) & 0xFF
        if status & 0x7F != 0 || exitCode != 0 {
            io.writeErr("chatctl: --exec: the command failed for message \(message.id) (status \(status & 0x7F != 0 ? "signal \(status & 0x7F)" : "\(exitCode)"))\n")
        }
    }
}
