/// Keys: on the dialogs screen they move and filter; in a conversation they edit
/// the input, send, scroll, and select cells (Tab) to download their attachments.
extension ScreenUpdate.Step {
    // MARK: dialogs screen

    mutating func dialogsKey(_ key: Key) {
        if model.dialogs.filter != nil, filterKey(key) { return }
        switch key {
        case .down, .character("j"), .wheelDown: moveDialogSelection(by: 1)
        case .up, .character("k"), .wheelUp: moveDialogSelection(by: -1)
        case .pageDown: moveDialogSelection(by: max(1, ScreenAreas(model).bodyHeight - 1))
        case .pageUp: moveDialogSelection(by: -max(1, ScreenAreas(model).bodyHeight - 1))
        case .home, .character("g"): moveDialogSelection(by: -model.dialogs.all.count)
        case .end, .character("G"): moveDialogSelection(by: model.dialogs.all.count)
        case .enter:
            let shown = model.dialogs.shown
            if let index = model.dialogs.selectedIndex { open(shown[index]) }
        case .character("/"):
            model.dialogs.filter = ""
        case .escape, .character("q"), .control("d"):
            quit()
        case .control("c"):
            quit(interrupted: true)
        default:
            break
        }
    }

    /// Typing after `/`: the filter takes text; Esc ends it. True when the key was the filter's.
    mutating func filterKey(_ key: Key) -> Bool {
        switch key {
        case .character(let c):
            model.dialogs.filter! += String(c)
            model.dialogs.top = 0
            if let first = model.dialogs.shown.first { model.dialogs.selectedID = first.id }
            return true
        case .backspace:
            if model.dialogs.filter!.isEmpty { model.dialogs.filter = nil } else { model.dialogs.filter!.removeLast() }
            return true
        case .escape:
            model.dialogs.filter = nil
            return true
        case .control("u"):
            model.dialogs.filter = ""
            return true
        default:
            return false
        }
    }

    mutating func moveDialogSelection(by delta: Int) {
        let shown = model.dialogs.shown
        guard !shown.isEmpty else { return }
        let index = max(0, min(shown.count - 1, (model.dialogs.selectedIndex ?? 0) + delta))
        model.dialogs.selectedID = shown[index].id
        let rows = max(1, ScreenAreas(model).bodyHeight)
        if index < model.dialogs.top { model.dialogs.top = index }
        if index >= model.dialogs.top + rows { model.dialogs.top = index - rows + 1 }
    }

    mutating func quit(interrupted: Bool = false) {
        sayPausedIfComposing()
        if model.screen == .conversation, let open = model.conversation?.dialog.id { keepDraft(of: open) }
        model.quitting = true
        effects.append(.quit(interrupted: interrupted))
    }

    // MARK: conversation

    mutating func conversationKey(_ key: Key) {
        if pendingActionKey(key) { return }
        if model.conversation?.selection != nil, selectionKey(key) { return }
        switch key {
        case .character(let c): model.input.insert(String(c))
        case .enter: submit()
        case .newline: model.input.insert("\n")
        case .backspace: model.input.backspace()
        case .delete: model.input.deleteForward()
        case .left: model.input.moveLeft()
        case .right: model.input.moveRight()
        case .wordLeft: model.input.moveWordLeft()
        case .wordRight: model.input.moveWordRight()
        case .control("a"): model.input.moveToLineStart()
        case .control("e"): model.input.moveToLineEnd()
        case .control("w"): model.input.deleteWordBackward()
        case .control("u"): model.input.deleteToLineStart()
        case .control("k"): model.input.deleteToLineEnd()
        case .control("d"):
            if model.input.isEmpty { quit() } else { model.input.deleteForward() }
        case .control("c"): quit(interrupted: true)
        case .home:
            if model.input.isEmpty { scrollToTop() } else { model.input.moveToLineStart() }
        case .end:
            if model.input.isEmpty { scrollToBottom() } else { model.input.moveToLineEnd() }
        case .up:
            if !model.input.moveUp() { model.input.historyBack() }
        case .down:
            if !model.input.moveDown() { model.input.historyForward() }
        case .pageUp: scrollUp(pageRows)
        case .pageDown: scrollDown(pageRows)
        case .wheelUp: scrollUp(3)
        case .wheelDown: scrollDown(3)
        case .tab: startSelecting()
        case .escape:
            if model.openedDirectly { quit() } else { backToDialogs() }
        default:
            break
        }
    }

    /// Keys while a cell is selected; false for keys that end the selection and act as usual.
    mutating func selectionKey(_ key: Key) -> Bool {
        switch key {
        case .up, .character("k"): moveSelection(by: -1)
        case .down, .character("j"): moveSelection(by: 1)
        case .character("d"): downloadSelected()
        case .character("r"), .character("f"), .character("y"), .character("e"), .character("x"): _ = messageActionKey(key)
        case .tab, .escape, .enter: model.conversation?.selection = nil
        case .pageUp, .pageDown, .wheelUp, .wheelDown: return false
        default:
            model.conversation?.selection = nil
            return false
        }
        return true
    }

    var pageRows: Int { max(1, ScreenAreas(model).bodyHeight - 2) }

    // MARK: sending and commands

    mutating func submit() {
        guard let conversation = model.conversation, let text = model.input.submit() else { return }
        let trimmed = text.trimmingBlanks()
        if trimmed.hasPrefix("/") && !trimmed.hasPrefix("//") {
            command(trimmed)
            return
        }
        let body = trimmed.hasPrefix("//") ? String(text.drop { $0 != "/" }.dropFirst()) : text
        if let composing = model.composing { return sendComposed(body, composing, dialogID: conversation.dialog.id) }
        // Sent: nobody needs a `paused` (the message ends the typing); we are back to active.
        model.typingSent = .active
        model.conversation?.anchor = nil
        model.conversation?.newBelow = 0
        effects.append(.send(text: body, dialogID: conversation.dialog.id))
    }

    mutating func command(_ line: String) {
        guard let conversation = model.conversation else { return }
        let name = String(line.prefix { !$0.isWhitespace })
        let argument = String(line.dropFirst(name.count)).trimmingBlanks()
        switch name {
        case "/quit", "/q", "/exit":
            quit()
        case "/attach":
            guard !argument.isEmpty else { return tell("/attach needs a file: /attach PATH") }
            effects.append(.attach(path: argument, dialogID: conversation.dialog.id))
        case "/accept":
            answerContact(argument, accept: true)
        case "/reject":
            answerContact(argument, accept: false)
        case "/download", "/d":
            if conversation.selection != nil { downloadSelected() } else { downloadNewestVisible() }
        case "/block", "/unblock":
            let blocking = name == "/block"
            guard conversation.dialog.kind == .private, let peer = conversation.dialog.peerID else {
                return tell("\(name) is for a private dialog: it \(blocking ? "blocks" : "unblocks") the other person")
            }
            let who = model.names[peer] ?? conversation.dialog.title
            if blocking == model.blocked.contains(peer) {
                return tell(blocking ? "\(who) is blocked already: /unblock to undo" : "\(who) is not blocked")
            }
            // Shown from `confirming` itself (ScreenAreas), so no notice can hide it while it waits.
            model.confirming = blocking ? .block(userID: peer, name: who) : .unblock(userID: peer, name: who)
        case "/help", "/?":
            model.help = HelpOverlay()
        default:
            tell("unknown command \(name): /help lists the commands (// starts a message with /)")
        }
    }


    // MARK: selection

    mutating func startSelecting() {
        guard let conversation = model.conversation else { return }
        let visible = viewport.visibleIndices
        let entries = conversation.entries
        guard !entries.isEmpty else { return }
        let withFiles = visible.last { !entries[$0].attachments.isEmpty }
        let index = withFiles ?? visible.last ?? entries.count - 1
        model.conversation?.selection = entries[index].id
        keepVisible(index)
    }

    mutating func moveSelection(by delta: Int) {
        guard let conversation = model.conversation, let id = conversation.selection,
              let current = conversation.index(of: id) else { return }
        let entries = conversation.entries
        let index = max(0, min(entries.count - 1, current + delta))
        model.conversation?.selection = entries[index].id
        keepVisible(index)
    }

    mutating func downloadSelected() {
        guard let conversation = model.conversation, let id = conversation.selection,
              let index = conversation.index(of: id) else { return }
        download(conversation.entries[index])
    }

    mutating func downloadNewestVisible() {
        guard let conversation = model.conversation else { return }
        let entries = conversation.entries
        guard let index = viewport.visibleIndices.last(where: { !entries[$0].attachments.isEmpty }) else {
            return tell("no attachment on the screen: select one with Tab, then press d")
        }
        download(entries[index])
    }

    /// The first attachment not saved yet (d again saves the next); one being saved is left alone.
    mutating func download(_ message: ShownMessage) {
        let files = message.attachments.indices.filter { message.attachments[$0].uid != nil }
        guard !files.isEmpty else {
            return tell(message.attachments.isEmpty ? "this message has no attachment" : "this attachment has no file to download")
        }
        let next = files.first { message.attachments[$0].transfer == nil }
            ?? files.first { message.attachments[$0].transfer.map { $0.outcome != .running } ?? false }
        guard let index = next else { return tell("\(message.attachments[files[0]].name) is being saved") }
        effects.append(.download(messageID: message.id, attachment: index))
    }
}

extension String {
    /// Without leading and trailing spaces and newlines.
    func trimmingBlanks() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
