import ChatIdentifiers

/// Actions on a selected cell (Tab, then ↑/↓): `r` reply, `f` forward, `y` copy, `e`
/// edit and `x` delete one's own (`d` saves, in ScreenUpdate+Keys.swift). A reply or an
/// edit is written in the input (Esc cancels, Enter sends); a forward picks a dialog
/// from a list over the conversation; a delete asks first on the status line.
extension ScreenUpdate.Step {
    /// A key on a selected cell that is one of its actions; false for other keys.
    mutating func messageActionKey(_ key: Key) -> Bool {
        guard let conversation = model.conversation, let id = conversation.selection,
              let index = conversation.index(of: id) else { return false }
        let message = conversation.entries[index]
        let pending = conversation.pending.contains { $0.id == id }
        switch key {
        case .character("r"):
            guard !pending else { tell("not sent yet: reply once it is"); return true }
            startComposing(.reply(message))
        case .character("f"):
            guard !pending else { tell("not sent yet: forward it once it is"); return true }
            model.conversation?.selection = nil
            model.forwarding = Forwarding(message: message, dialogs: model.dialogs.all)
        case .character("y"):
            let text = message.text.isEmpty ? message.attachments.map(\.name).joined(separator: "\n") : message.text
            guard !text.isEmpty else { tell("nothing to copy"); return true }
            effects.append(.copy(text))
            tell("copied to the clipboard")
        case .character("e"):
            guard message.outgoing else { tell("only your own messages can be edited"); return true }
            guard !pending else { tell("not sent yet: edit it once it is"); return true }
            startComposing(.edit(message))
            model.input.clear()
            model.input.insert(message.text)
        case .character("x"):
            guard message.outgoing else { tell("only your own messages can be deleted"); return true }
            guard !pending else { tell("not sent yet: it is in the outbox"); return true }
            // Shown from `confirming` itself (ScreenAreas), so no notice can hide it while it waits.
            model.confirming = .delete(message)
        default:
            return false
        }
        return true
    }

    mutating func startComposing(_ composing: Composing) {
        model.conversation?.selection = nil
        model.composing = composing
    }

    /// Keys while a forward is picked or a question asked, and Esc while composing;
    /// true when the key was theirs.
    mutating func pendingActionKey(_ key: Key) -> Bool {
        if model.forwarding != nil {
            forwardKey(key)
            return true
        }
        if let confirming = model.confirming {
            model.confirming = nil
            switch (confirming, key) {
            case (.delete(let message), .character("y")), (.delete(let message), .character("Y")):
                effects.append(.delete(messageID: message.id, dialogID: message.dialogID))
                tell("deleting" + (model.profile.unicode ? "…" : "..."))
            case (.block(let user, let name), .character("y")), (.block(let user, let name), .character("Y")):
                effects.append(.block(userID: user, true))
                tell("blocking \(name)" + (model.profile.unicode ? "…" : "..."))
            case (.unblock(let user, let name), .character("y")), (.unblock(let user, let name), .character("Y")):
                effects.append(.block(userID: user, false))
                tell("unblocking \(name)" + (model.profile.unicode ? "…" : "..."))
            case (.delete, _), (.block, _), (.unblock, _):
                tell(confirming.declined)
            }
            return true
        }
        if model.composing != nil, key == .escape {
            if case .edit? = model.composing { model.input.clear() }
            model.composing = nil
            return true
        }
        return false
    }

    /// The forward's list: ↑/↓ move, typing filters, Enter forwards, Esc gives up.
    mutating func forwardKey(_ key: Key) {
        guard var forwarding = model.forwarding else { return }
        let shown = forwarding.picker.shown
        let current = forwarding.picker.selectedIndex ?? 0
        switch key {
        case .up, .wheelUp:
            if !shown.isEmpty { forwarding.picker.selectedID = shown[max(0, current - 1)].id }
        case .down, .wheelDown:
            if !shown.isEmpty { forwarding.picker.selectedID = shown[min(shown.count - 1, current + 1)].id }
        case .character(let c):
            forwarding.picker.filter! += String(c)
            forwarding.picker.selectedID = forwarding.picker.shown.first?.id
        case .backspace:
            if !forwarding.picker.filter!.isEmpty { forwarding.picker.filter!.removeLast() }
            forwarding.picker.selectedID = forwarding.picker.shown.first?.id
        case .escape:
            model.forwarding = nil
            return
        case .control("c"):
            model.forwarding = nil
            quit(interrupted: true)
            return
        case .enter:
            model.forwarding = nil
            guard let index = forwarding.picker.selectedIndex else { return tell("no dialog matches") }
            let target = shown[index]
            effects.append(.forward(messageID: forwarding.message.id, to: target.id))
            tell("forwarded to \(target.title)")
            return
        default:
            break
        }
        model.forwarding = forwarding
    }

    /// Enter while composing: the text as a reply, or as the message's new text.
    mutating func sendComposed(_ text: String, _ composing: Composing, dialogID: DialogID) {
        model.composing = nil
        switch composing {
        case .reply(let original):
            model.typingSent = .active
            model.conversation?.anchor = nil
            model.conversation?.newBelow = 0
            effects.append(.reply(text: text, dialogID: dialogID, to: original.id))
        case .edit(let original):
            guard text != original.text else { return tell("not changed") }
            effects.append(.edit(messageID: original.id, dialogID: original.dialogID, text: text))
        }
    }

    // MARK: what the edge reports

    /// New texts of messages their senders edited.
    mutating func edited(_ messages: [ShownMessage]) {
        guard var conversation = model.conversation else { return }
        for message in messages where message.dialogID == conversation.dialog.id {
            guard let index = conversation.messages.lastIndex(where: { $0.id == message.id }) else { continue }
            var updated = ScreenUpdate.Step.merged(conversation.messages[index], with: message)
            updated.edited = true
            conversation.messages[index] = updated
        }
        model.conversation = conversation
    }

    /// Messages deleted for everyone: they leave the view (and a reply or edit of one ends).
    mutating func removed(_ ids: [String], dialogID: DialogID) {
        guard var conversation = model.conversation, conversation.dialog.id == dialogID else { return }
        let gone = Set(ids)
        conversation.messages.removeAll { gone.contains($0.id) }
        if let selection = conversation.selection, gone.contains(selection) { conversation.selection = nil }
        model.conversation = conversation
        if let composing = model.composing, gone.contains(composing.message.id) { model.composing = nil }
        if case .delete(let asked)? = model.confirming, gone.contains(asked.id) { model.confirming = nil }
    }
}
