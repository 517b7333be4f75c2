import ChatIdentifiers

/// The one place the model changes: `update(model, event, now:)` returns the new
/// model and what the edge must do (send, mark read, load older, download…). Pure:
/// no terminal, no network, no clock but `now`; unit-tested event by event. What
/// finishes in the background (a fetch, a preview drawn) comes back as an event.
package struct ScreenUpdate {
    package init() {}

    /// How long a `composing` from someone else shows without news (XEP-0085 leaves it open).
    package static let typingShownFor = 30.0
    /// Idle seconds after which we say `paused`.
    package static let pausedAfter = 5.0
    /// A `composing` is said again after this long of typing, for peers that forget it.
    package static let composingRepeat = 10.0
    /// How long a notice stays in the status line.
    package static let noticeShownFor = 8.0

    package func update(_ model: ScreenModel, _ event: ScreenEvent, now: Double) -> (ScreenModel, [ScreenEffect]) {
        var step = Step(model: model)
        step.model.now = now
        step.apply(event)
        step.settle()
        return (step.model, step.effects)
    }

    /// One update in progress: the model as it changes and the effects asked for.
    struct Step {
        var model: ScreenModel
        var effects: [ScreenEffect] = []
        /// The input's text before this event, to notice edits.
        let inputBefore: String

        init(model: ScreenModel) {
            self.model = model
            inputBefore = model.input.text
        }

        var now: Double { model.now }

        mutating func apply(_ event: ScreenEvent) {
            switch event {
            case .key(let key):
                if model.help != nil { return helpKey(key) }
                // A notice lasts until the next thing the user does (a question waits for its answer).
                model.notice = nil
                if key == .function(1) { return model.help = HelpOverlay() }
                if model.screen == .dialogs { dialogsKey(key) } else { conversationKey(key) }
            case .paste(let text):
                // A paste answers no question (it could start with 'y').
                if let confirming = model.confirming { model.confirming = nil; return tell(confirming.declined) }
                if model.help != nil { return }
                if model.screen == .dialogs {
                    if model.dialogs.filter != nil { model.dialogs.filter! += text.filter { !$0.isNewline } }
                } else {
                    model.input.insert(text)
                }
            case .resize(let width, let height):
                model.width = max(1, width)
                model.height = max(1, height)
            case .tick:
                expire()
            case .dialogsLoaded(let list):
                loadDialogs(list)
            case .conversationLoaded(let dialog, let messages, let pending, let names):
                model.names.merge(names) { $1 }
                guard model.conversation?.dialog.id == dialog.id else { return }
                var conversation = Conversation(dialog: dialog)
                conversation.loaded = true
                // Heard while the page was read: kept when newer than the page's start.
                let loaded = Set(messages.map(\.id))
                let start = messages.map(\.cursor).min()
                let heard = (model.conversation?.messages ?? []).filter { m in
                    !loaded.contains(m.id) && start.map { m.cursor > $0 } ?? true
                }
                conversation.messages = Self.sorted(messages + heard)
                conversation.pending = pending
                conversation.typing = model.conversation?.typing ?? [:]
                model.conversation = conversation
            case .messagesArrived(let messages):
                arrived(messages, asTheyCame: true)
            case .historyArrived(let messages):
                arrived(messages, asTheyCame: false)
            case .messagesChanged(let messages):
                changed(messages)
            case .pendingChanged(let dialogID, let pending):
                guard var conversation = model.conversation, conversation.dialog.id == dialogID else { return }
                let known = Set(conversation.messages.suffix(Conversation.pageSize).map(\.id))
                // A transfer under way, and where its file is, stay with the entry.
                let before = Dictionary(conversation.pending.map { ($0.id, $0) }) { first, _ in first }
                // One refused for good left the outbox: it stays shown, marked, until the dialog is left.
                let refused = conversation.pending.filter { shown in
                    if case .refused = shown.delivery { return !pending.contains { $0.id == shown.id } }
                    return false
                }
                conversation.pending = refused + pending.filter { !known.contains($0.id) }.map { entry in
                    before[entry.id].map { Self.merged($0, with: entry) } ?? entry
                }
                model.conversation = conversation
            case .olderLoaded(let dialogID, let before, let messages, let exhausted):
                olderLoaded(dialogID, before: before, messages, exhausted: exhausted)
            case .newerLoaded(let dialogID, let messages, let latest):
                newerLoaded(dialogID, messages, latest: latest)
            case .typing(let userID, let dialogID, let state):
                typing(userID: userID, dialogID: dialogID, state)
            case .connection(let state):
                if state == .connected && model.connection != .connected { model.avatars.forgetMissing() }
                model.connection = state
                if state == .connected { model.conversation?.olderWaitsForConnection = false }
            case .transfer(let messageID, let index, let transfer, let localPath):
                updateAttachment(messageID: messageID, index: index) { attachment in
                    attachment.transfer = transfer
                    if let localPath { attachment.localPath = localPath }
                }
            case .previewDrawn(let request, let preview):
                model.previews.store(preview, for: request)
                if model.previews.count > PreviewCache.capacity { model.previews.trim(keeping: previewsOnScreen) }
            case .notice(let text):
                tell(text)
            case .names(let names):
                model.names.merge(names) { $1 }
            case .presence(let userID, let presence):
                model.presence[userID] = presence
            case .messagesEdited(let messages):
                edited(messages)
            case .messagesRemoved(let dialogID, let ids):
                removed(ids, dialogID: dialogID)
            case .avatarFetched(let userID, let path):
                model.avatars.fetched(userID, path: path)
            case .contactRequest(let userID, let waiting):
                contactRequest(userID, waiting: waiting)
            case .messageRefused(let dialogID, let id, let reason):
                tell(reason)
                guard var conversation = model.conversation, conversation.dialog.id == dialogID,
                      let index = conversation.pending.firstIndex(where: { $0.id == id }) else { return }
                conversation.pending[index].delivery = .refused(reason)
                model.conversation = conversation
            case .blockedChanged(let users):
                let before = model.blocked
                model.blocked = users
                if let peer = model.conversation?.dialog.peerID, before.contains(peer) != users.contains(peer) {
                    let who = model.names[peer] ?? model.conversation?.dialog.title ?? "user \(peer)"
                    tell(users.contains(peer) ? "blocked \(who)" : "unblocked \(who)")
                }
            }
        }

        mutating func tell(_ text: String) {
            model.notice = text
            model.noticeUntil = now + ScreenUpdate.noticeShownFor
        }

        // MARK: dialogs

        mutating func loadDialogs(_ list: [DialogSummary]) {
            var list = list
            if let open = model.conversation?.dialog.id, let index = list.firstIndex(where: { $0.id == open }) {
                list[index].unread = 0
                model.conversation?.dialog.title = list[index].title
            }
            model.dialogs.all = list
            if model.dialogs.selectedID == nil || !list.contains(where: { $0.id == model.dialogs.selectedID }) {
                model.dialogs.selectedID = list.first?.id
            }
        }

        mutating func open(_ dialog: DialogSummary) {
            sayPausedIfComposing()
            if let previous = model.conversation?.dialog.id, previous != dialog.id { keepDraft(of: previous) }
            model.screen = .conversation
            model.conversation = Conversation(dialog: dialog)
            model.input = model.drafts[dialog.id] ?? LineEditor()
            if let index = model.dialogs.all.firstIndex(where: { $0.id == dialog.id }) { model.dialogs.all[index].unread = 0 }
            effects.append(.openDialog(id: dialog.id))
        }

        mutating func backToDialogs() {
            sayPausedIfComposing()
            if let open = model.conversation?.dialog.id {
                effects.append(.closeDialog(id: open))
                keepDraft(of: open)
            }
            model.screen = .dialogs
            model.conversation = nil
            model.input = LineEditor()
        }

        /// The input as the dialog's draft, for when it opens again (its history too, so kept even
        /// when empty), and for the next run when its text or cursor changed.
        mutating func keepDraft(of dialogID: DialogID) {
            let kept = model.drafts[dialogID]
            if kept?.text ?? "" != model.input.text || (!model.input.isEmpty && kept?.cursor != model.input.cursor) {
                effects.append(.keepDraft(dialogID: dialogID, text: model.input.text, cursor: model.input.cursor))
            }
            model.drafts[dialogID] = model.input
        }

        // MARK: messages

        static func sorted(_ messages: [ShownMessage]) -> [ShownMessage] {
            messages.sorted { $0.cursor < $1.cursor }
        }

        mutating func arrived(_ messages: [ShownMessage], asTheyCame: Bool) {
            var elsewhere: [ShownMessage] = []
            defer { notify(elsewhere) }
            for message in messages {
                if noteInList(message) { elsewhere.append(message) }
                guard var conversation = model.conversation, conversation.dialog.id == message.dialogID else { continue }
                conversation.typing[message.senderID] = nil
                var message = message
                if let sent = conversation.pending.first(where: { $0.id == message.id }) {
                    // Sent from here: the files it was made from are still here (previews).
                    message = Self.merged(sent, with: message)
                    message.attachments = message.attachments.map { var a = $0; if a.transfer?.direction == .upload { a.transfer = nil }; return a }
                }
                conversation.pending.removeAll { $0.id == message.id }
                if let index = conversation.messages.lastIndex(where: { $0.id == message.id }) {
                    conversation.messages[index] = Self.merged(conversation.messages[index], with: message)
                } else if conversation.newerTrimmed {
                    // The view shows older history: the cache has it for when the user scrolls down.
                    if !message.outgoing && conversation.newestCountedBelow.map({ message.cursor > $0 }) ?? true {
                        conversation.newBelow += 1
                        conversation.newestCountedBelow = message.cursor
                    }
                } else if let first = conversation.messages.first, message.cursor < first.cursor, !conversation.olderExhausted {
                    // Before the window: paging older brings it in order.
                } else {
                    // `date_sent` counts whole seconds and ids made by different clients do not sort
                    // by time: one heard live in the newest second goes below what is shown, as it came
                    // (history keeps its own order: date, then id).
                    let newestSecond = asTheyCame && conversation.messages.last.map { message.dateSent >= $0.dateSent } ?? true
                    let position = newestSecond ? conversation.messages.count
                        : conversation.messages.lastIndex { $0.cursor < message.cursor }.map { $0 + 1 } ?? 0
                    conversation.messages.insert(message, at: position)
                    if conversation.anchor != nil && !message.outgoing { conversation.newBelow += 1 }
                    if conversation.messages.count > Conversation.windowLimit && conversation.anchor == nil {
                        conversation.messages.removeFirst(conversation.messages.count - Conversation.windowLimit)
                        conversation.olderExhausted = false
                    }
                }
                model.conversation = conversation
            }
        }

        /// A fresh copy of a message keeps what this view learnt: read here.
        static func merged(_ old: ShownMessage, with new: ShownMessage) -> ShownMessage {
            var new = new
            new.readByMe = new.readByMe || old.readByMe
            new.edited = new.edited || old.edited
            for index in new.attachments.indices where index < old.attachments.count {
                if new.attachments[index].localPath == nil { new.attachments[index].localPath = old.attachments[index].localPath }
                if new.attachments[index].transfer == nil { new.attachments[index].transfer = old.attachments[index].transfer }
            }
            return new
        }

        /// The dialog list follows messages: last message, time, unread for dialogs not open.
        /// True when the message is unread news from a dialog not on the screen.
        @discardableResult
        mutating func noteInList(_ message: ShownMessage) -> Bool {
            guard let index = model.dialogs.all.firstIndex(where: { $0.id == message.dialogID }) else { return false }
            var dialog = model.dialogs.all[index]
            if message.dateSent >= (dialog.lastMessageDate ?? 0) {
                dialog.lastMessage = message.summary
                dialog.lastMessageDate = message.dateSent
            }
            let open = model.screen == .conversation && model.conversation?.dialog.id == message.dialogID
            let news = !message.outgoing && !message.readByMe && !open
            if news { dialog.unread += 1 }
            model.dialogs.all.remove(at: index)
            let position = model.dialogs.all.firstIndex { ($0.lastMessageDate ?? 0) <= (dialog.lastMessageDate ?? 0) } ?? model.dialogs.all.count
            model.dialogs.all.insert(dialog, at: position)
            return news && !dialog.muted
        }

        /// One notification for a batch of news from other dialogs (a catch-up brings many).
        mutating func notify(_ news: [ShownMessage]) {
            guard model.settings.notify, let last = news.last else { return }
            if news.count == 1 {
                let dialog = model.dialogs.all.first { $0.id == last.dialogID }
                let name = model.names[last.senderID] ?? last.senderName
                let title = dialog.map { $0.kind == .private ? name : "\(name) in \($0.title)" } ?? name
                let body = last.summary ?? ""
                effects.append(.notify(title: title, body: body))
            } else {
                let dialogs = Set(news.map(\.dialogID)).count
                effects.append(.notify(title: "chatctl", body: "\(news.count) new messages" + (dialogs > 1 ? " in \(dialogs) dialogs" : "")))
            }
        }

        mutating func changed(_ messages: [ShownMessage]) {
            guard var conversation = model.conversation else { return }
            for message in messages where message.dialogID == conversation.dialog.id {
                if let index = conversation.messages.lastIndex(where: { $0.id == message.id }) {
                    conversation.messages[index] = Self.merged(conversation.messages[index], with: message)
                }
            }
            model.conversation = conversation
        }

        mutating func olderLoaded(_ dialogID: DialogID, before: MessageCursor, _ messages: [ShownMessage], exhausted: Bool) {
            guard var conversation = model.conversation, conversation.dialog.id == dialogID else { return }
            conversation.loadingOlder = false
            let first = conversation.messages.first?.cursor
            // Messages came in since it was asked (the dialog caught up): the next ask starts from them.
            if before != (first ?? MessageCursor(dateSent: Int.max, id: "")) && messages.allSatisfy({ m in conversation.messages.contains { $0.id == m.id } }) {
                model.conversation = conversation
                return
            }
            let known = Set(conversation.messages.map(\.id))
            let older = Self.sorted(messages.filter { !known.contains($0.id) && (first == nil || $0.cursor < first!) })
            if older.isEmpty {
                if exhausted { conversation.olderExhausted = true } else { conversation.olderWaitsForConnection = true }
                model.conversation = conversation
                return
            }
            conversation.olderExhausted = exhausted
            // A view that follows the end keeps following (anchor nil): what comes in above
            // cannot move its bottom, and pinning it here would hide what arrives next.
            // Older than the first shown: in front, the rest kept in the order it was shown.
            conversation.messages.insert(contentsOf: older, at: 0)
            trimNewest(&conversation)
            model.conversation = conversation
        }

        /// Lets go of the newest messages beyond the window, far below the view.
        func trimNewest(_ conversation: inout Conversation) {
            let excess = conversation.messages.count - Conversation.windowLimit
            guard excess > 0 else { return }
            let anchorIndex = conversation.anchor.flatMap { anchor in conversation.messages.lastIndex { $0.id == anchor.id } }
                ?? conversation.messages.count - 1
            let keepThrough = min(conversation.messages.count - 1, anchorIndex + 50)
            let removable = conversation.messages.count - 1 - keepThrough
            let removed = min(excess, removable)
            guard removed > 0 else { return }
            conversation.messages.removeLast(removed)
            conversation.newerTrimmed = true
        }

        mutating func newerLoaded(_ dialogID: DialogID, _ messages: [ShownMessage], latest: Bool) {
            guard var conversation = model.conversation, conversation.dialog.id == dialogID else { return }
            conversation.loadingNewer = false
            let last = conversation.messages.last?.cursor
            let known = Set(conversation.messages.suffix(Conversation.pageSize).map(\.id))
            let newer = Self.sorted(messages.filter { (last == nil || last! < $0.cursor) && !known.contains($0.id) })
            conversation.messages += newer
            conversation.newerTrimmed = !latest
            if latest { conversation.newBelow = 0 }
            let excess = conversation.messages.count - Conversation.windowLimit
            if excess > 0 {
                let anchorIndex = conversation.anchor.flatMap { anchor in conversation.messages.lastIndex { $0.id == anchor.id } } ?? 0
                let removable = max(0, anchorIndex - 50)
                let removed = min(excess, removable)
                if removed > 0 {
                    conversation.messages.removeFirst(removed)
                    conversation.olderExhausted = false
                }
            }
            model.conversation = conversation
        }

        mutating func updateAttachment(messageID: String, index: Int, _ change: (inout ShownAttachment) -> Void) {
            guard var conversation = model.conversation else { return }
            if let m = conversation.messages.lastIndex(where: { $0.id == messageID }), index < conversation.messages[m].attachments.count {
                change(&conversation.messages[m].attachments[index])
            } else if let m = conversation.pending.firstIndex(where: { $0.id == messageID }), index < conversation.pending[m].attachments.count {
                change(&conversation.pending[m].attachments[index])
            }
            model.conversation = conversation
        }

        // MARK: typing

        mutating func typing(userID: Int, dialogID: DialogID?, _ state: TypingState) {
            guard userID != model.me, var conversation = model.conversation else { return }
            let matches = dialogID.map { $0 == conversation.dialog.id }
                ?? (conversation.dialog.kind == .private && conversation.dialog.peerID == userID)
            guard matches else { return }
            conversation.typing[userID] = state == .composing ? now + ScreenUpdate.typingShownFor : nil
            model.conversation = conversation
        }

        /// Typing from others that went quiet, an old notice, our own `paused` when the user stopped.
        mutating func expire() {
            if var conversation = model.conversation, conversation.typing.values.contains(where: { $0 <= now }) {
                conversation.typing = conversation.typing.filter { $0.value > now }
                model.conversation = conversation
            }
            if model.notice != nil && now >= model.noticeUntil { model.notice = nil }
            if model.typingSent == .composing && now - model.lastEditAt >= ScreenUpdate.pausedAfter { say(.paused) }
        }

        mutating func say(_ state: TypingState) {
            guard let dialog = model.conversation?.dialog.id else { return }
            model.typingSent = state
            model.typingSentAt = now
            effects.append(.sendTyping(state, dialogID: dialog))
        }

        mutating func sayPausedIfComposing() {
            if model.typingSent == .composing { say(.paused) }
        }

        /// After the event: our typing state follows the input, what is on the screen
        /// is marked displayed, and older messages load as the top comes near.
        mutating func settle() {
            guard model.screen == .conversation, model.conversation != nil, !model.quitting else { return }
            if model.input.text != inputBefore {
                model.lastEditAt = now
                if model.input.isEmpty {
                    sayPausedIfComposing()
                } else if model.typingSent != .composing || now - model.typingSentAt >= ScreenUpdate.composingRepeat {
                    say(.composing)
                }
            }
            guard !model.isTooSmall else { return }
            seeWhatIsVisible()
        }
    }
}
