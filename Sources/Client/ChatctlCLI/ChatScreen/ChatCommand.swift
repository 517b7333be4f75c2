#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ChatView
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import TerminalImages
import Threads

/// `chatctl chat [DIALOG]`: the interactive chat view (docs/architecture.md, "The chat view").
struct ChatCommand: Command {
    static let configuration = CommandConfiguration(
        name: "chat",
        abstract: "Chat in a full-screen view: your dialogs, then one dialog live.",
        discussion: """
            Without DIALOG, lists your dialogs (arrows or j/k, / to filter, Enter to open). In a dialog: \
            messages as they arrive, yours on the right with their state (sending…, ✓ sent, ✓✓ delivered, \
            ✓✓ highlighted once read), who is typing, and the connection in the status line. Enter sends (through \
            the outbox, exactly once, as 'send' does; without a connection it waits there and goes when chat \
            is back), ^J starts a new line, Up and Down bring back what you sent, PgUp/PgDn and the mouse wheel \
            scroll (older messages load as you reach the top), Home and End jump when the input is empty, Tab \
            selects a message: r replies, f forwards, y copies, e edits and x deletes your own, d saves its \
            attachment here. /help (or F1) lists every key and command, /quit (or Esc, ^D) ends. Messages on the \
            screen count as read: their senders are told; a message in another dialog rings the bell and shows \
            in the window title. The config's chatView section sets avatars, labels, time format, colours and \
            the compact layout. It opens from the cache when the server cannot be reached. Needs a terminal: \
            for scripts, use 'history' and 'listen'.
            """,
        examples: [
            Example("Pick a dialog from the list, then chat in it", "chatctl chat"),
            Example("Open the dialog with bob at once", "chatctl chat @bob"),
            Example("Without image previews", "chatctl chat ops --images none"),
        ])

    @OptionalArgument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference?
    @Option("images", metavar: "MODE", help: "Image previews: auto, symbols, sixel, kitty or none.")
    var images: ImageMode = .auto
    @Flag("no-notify", help: "No bell, title count or desktop notification for messages in other dialogs.")
    var noNotify: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let term = context.environment["TERM"] ?? ""
        guard context.io.stdinIsTerminal, context.io.stdoutIsTerminal, !term.isEmpty, term != "dumb" else {
            throw Failure(
                .invalidInput, "chat needs a terminal (standard input and output, TERM not dumb)",
                hint: "to read a dialog use 'chatctl history DIALOG', to follow messages 'chatctl listen'")
        }
        // The view's own cache connection; the network and transfer threads get theirs.
        let view = try context.messagingSession(source: .cacheOnly)
        // Told before the screen is taken, and still there once it is given back.
        let viewSettings = ChatViewSettings.read(configAt: view.config.path, io: context.io)
        var opened: DialogID?
        if let dialog { opened = try resolve(dialog, view: view, context: context) }
        let chatPassword = try chatPassword(context, session: view)
        let network = try context.quietMessagingSession()
        // Before the screen is taken: a line about a mute not undone stays readable.
        context.endExpiredMutes(network.service)
        let files = try context.quietMessagingSession()
        let outboxDirectory = try context.outboxFilesDirectory()
        // Diagnostics would scribble over the screen: --verbose goes only where stderr is not the terminal.
        let verboseLog = context.io.stderrIsTerminal ? nil : context.verboseLog

        let inbox = try ChatInbox()
        guard let signals = SignalPipe(catching: [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT], restarting: true) else {
            throw Failure(.failure, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        defer { signals.release() }
        let terminal = try ChatTerminal(colors: (context.environment["NO_COLOR"] ?? "").isEmpty)
        defer { terminal.restore() }

        // The chat engine on a thread of its own (docs/architecture.md, "Threads"): every
        // dialog heard, the view's commands taken between turns, its events to the inbox.
        var settings = ChatEngine.Settings()
        settings.dialogs = .all
        settings.reconnect = .view
        settings.skipsRoomsThatFail = true
        settings.reportsDialogList = true
        settings.pageSize = Conversation.pageSize
        settings.followedRefreshSeconds = 2
        settings.tracksBlocking = true
        let feed = ChatViewFeed(me: view.service.me) { inbox.post($0) }
        let (config, stored) = (network.config, network.session)
        guard let live = LiveChat(network: Handover(network.service), transfers: Handover(files.service), makeLink: { service in
            ChatLink.make(for: MessagingSession(config: config, session: stored, service: service), verboseLog: verboseLog) { chatPassword }
        }, settings: settings, outboxDirectory: outboxDirectory, events: feed.post) else {
            throw Failure(.failure, "cannot start the chat's threads", hint: "the system is out of threads; try again")
        }
        let previews = try context.stateDirectory() + "/previews"
        // Image previews (docs/architecture.md, "Image previews"): decoded and drawn in
        // the background, each one posted back to the view as an event.
        let drawer = ChatPreviewDrawer(terminal: TerminalTraits(environment: context.environment, cellSize: Self.cellSize())) {
            request, preview in inbox.post(.previewDrawn(request, preview))
        }
        let effects = ChatEffects(service: view.service, live: live, previewDirectory: previews, previewDrawer: drawer,
                                  clipboard: { [terminal] text in terminal.copyToClipboard(text) })
        let desktop = TerminalNotification.desktop(environment: context.environment)
        let insideTmux = context.environment["TMUX"] != nil
        effects.notifier = { [terminal] title, body in
            terminal.notify(TerminalNotification.sequence(title: title, body: body, desktop: desktop, insideTmux: insideTmux))
        }
        effects.avatarDirectory = try context.stateDirectory() + "/avatars"
        var model = ScreenModel(me: view.service.me, width: terminal.width, height: terminal.height, now: ChatEventLoop.now,
                                profile: RenderProfile(unicode: terminal.unicode, colors: terminal.colors, images: images),
                                clock: TimeLabels(utcOffset: Self.utcOffset))
        model.settings = viewSettings
        if noNotify { model.settings.notify = false }
        for draft in view.service.drafts() { model.drafts[draft.dialogID] = LineEditor(draft.text, cursor: draft.cursor) }
        // Whom the user blocks as last read, until the engine reads the list again once connected.
        model.blocked = view.service.blockedUsers()
        var first = [effects.dialogs()]
        if let opened, let summary = view.service.cachedDialog(id: opened) {
            model.openedDirectly = true
            model.screen = .conversation
            model.conversation = Conversation(dialog: ChatViewRecords.dialog(summary, me: view.service.me, names: [:]))
            model.input = model.drafts[opened] ?? LineEditor()
            first += effects.perform(.openDialog(id: opened), model: model)
        }
        let loop = ChatEventLoop(model: model, update: ScreenUpdate(), renderer: ScreenRenderer(), terminal: terminal,
                                 inbox: inbox, signals: signals, effects: effects,
                                 tracePath: context.environment["CHATCTL_CHAT_TRACE"])
        let ending = loop.run(first: first)
        // The screen first: whatever happens next, the user has their terminal back.
        terminal.restore()
        // The last markers and read marks reach the server, if it answers quickly.
        live.stop(waiting: ending == .quit ? 3 : 1)
        let undelivered = effects.undelivered()
        switch ending {
        case .quit:
            guard undelivered == 0 else {
                throw Failure(
                    .undelivered(undelivered), "\(undelivered) message\(undelivered == 1 ? " was" : "s were") not delivered yet",
                    hint: "they stay in the outbox: 'chatctl outbox flush', or chat again, sends them")
            }
            return .ok
        case .interrupted:
            return .interrupted
        case .signal(let number):
            // Ended by a signal: end as the signal would have, now that the terminal is restored.
            signals.release()
            ProcessSignals.endBy(number)
            return .interrupted
        }
    }

    /// The pixel size of one cell, when the terminal reports its own in pixels.
    static func cellSize() -> CellSize? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return CellSize(columns: Int(size.ws_col), rows: Int(size.ws_row),
                        pixelWidth: Int(size.ws_xpixel), pixelHeight: Int(size.ws_ypixel))
    }

    /// The dialog named on the command line: from the cache, so the view opens
    /// without the server; from the server only when the cache does not know it.
    private func resolve(_ reference: DialogReference, view: MessagingSession, context: CommandContext) throws -> DialogID {
        if let cached = try? view.service.resolve(reference, source: .cacheOnly, createPrivate: false) { return cached.id }
        let online = try context.messagingSession(source: .server)
        return try online.service.resolve(reference, source: .server, createPrivate: true).id
    }

    /// With `chatAuth: password`, chat needs the password: asked now, before the screen is taken.
    private func chatPassword(_ context: CommandContext, session: MessagingSession) throws -> String? {
        guard session.config.chatAuth == .password else { return nil }
        guard let password = try context.renewalPassword()(session.session.login ?? "user \(session.session.userId)") else {
            throw Failure(.authentication, "this config authenticates chat with the password (chatAuth: password)",
                                                        hint: "set CHATCTL_PASSWORD or pass --password-file PATH")
        }
        return password
    }

    /// Seconds east of UTC at a moment, in the user's time zone.
    @Sendable static func utcOffset(_ unix: Int) -> Int {
        var seconds = time_t(unix)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts.tm_gmtoff
    }
}
