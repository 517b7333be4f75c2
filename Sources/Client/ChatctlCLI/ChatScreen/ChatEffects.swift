#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import AuthFlow
import ChatView
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI
import TerminalImages
import XMPPTransport

/// Carries out the update's effects on the terminal's thread. What the cache can
/// answer at once is answered here, from this thread's own cache connection (a
/// dialog's newest page, older and newer pages, the outbox); a message goes into
/// the outbox here, before anything is sent, so Enter never loses it; the network
/// and files are handed to their own threads.
final class ChatEffects {
    private let service: MessagingService
    /// The chat engine's and the files' threads.
    private let live: LiveChat
    /// Where images are fetched for their previews (in the state directory).
    private let previewDirectory: String
    private let previewDrawer: ChatPreviewDrawer
    /// Where senders' avatars are kept (in the state directory).
    var avatarDirectory = ""
    private let owner = Int(getpid())
    /// Outbox ids of what was sent from this view.
    private var sent: [String] = []
    /// Puts text on the terminal's clipboard (OSC 52, ChatTerminal).
    private let clipboard: (String) -> Void
    /// Rings the bell and makes a desktop notification (ChatTerminal.notify).
    var notifier: (String, String) -> Void = { _, _ in }

    init(service: MessagingService, live: LiveChat, previewDirectory: String, previewDrawer: ChatPreviewDrawer,
         clipboard: @escaping (String) -> Void = { _ in }) {
        self.service = service; self.live = live; self.previewDirectory = previewDirectory
        self.previewDrawer = previewDrawer; self.clipboard = clipboard
    }

    /// The cache's change count when the open dialog was last read from it (`followCache`).
    private var cacheVersion: Int?

    /// What another process (a `chatctl send` in another terminal, a `listen`) or this one's
    /// engine cached for the open dialog since the view last looked: the cache is shared, so
    /// our own sends from elsewhere show at once. Read only when the cache changed, and only
    /// while the view holds the newest messages (else they wait below, counted by the engine's news).
    func followCache(_ model: ScreenModel) -> [ScreenEvent] {
        guard let conversation = model.conversation, conversation.loaded, !conversation.newerTrimmed,
              let version = service.cacheChangeCount, version != cacheVersion else { return [] }
        cacheVersion = version
        let newest = conversation.messages.last?.cursor
        let page = (try? service.cachedMessages(dialogID: conversation.dialog.id, after: MessagePosition(dateSent: (newest?.dateSent ?? 0) - 1, id: ""),
                                                limit: Conversation.pageSize)) ?? []
        let known = Set(conversation.messages.suffix(Conversation.pageSize).map(\.id))
        let unknown = page.filter { !known.contains($0.id) }
        return unknown.isEmpty ? [] : [.historyArrived(shown(unknown))]
    }

    /// The dialogs as the cache has them, for the first screen.
    func dialogs() -> ScreenEvent { ChatViewRecords.dialogsLoaded(service.dialogsOverview(), me: service.me) }

    /// Performs `effect`; returns the events that answer it at once.
    func perform(_ effect: ScreenEffect, model: ScreenModel) -> [ScreenEvent] {
        switch effect {
        case .openDialog(let id):
            live.post(ChatEngine.Command.follow(dialogID: id))
            return open(id)
        case .closeDialog:
            live.post(ChatEngine.Command.unfollow)
        case .send(let text, let dialogID):
            return send(text, dialogID: dialogID, model: model)
        case .sendTyping(let state, let dialogID):
            if let state = ChatState(rawValue: state.rawValue) { live.post(ChatEngine.Command.typing(state, dialogID: dialogID)) }
        case .markDisplayed(let ids, let dialogID):
            live.post(ChatEngine.Command.displayed(ids: ids, dialogID: dialogID))
        case .loadOlder(let dialogID, let before):
            let page = (try? service.cachedMessages(dialogID: dialogID, before: MessagePosition(dateSent: before.dateSent, id: before.id),
                                                    limit: Conversation.pageSize)) ?? []
            if !page.isEmpty { return [.olderLoaded(dialogID: dialogID, before: before, shown(page), exhausted: false)] }
            guard model.connection == .connected else { return [.olderLoaded(dialogID: dialogID, before: before, [], exhausted: false)] }
            live.post(ChatEngine.Command.fetchOlder(dialogID: dialogID, before: MessagePosition(dateSent: before.dateSent, id: before.id)))
        case .loadNewer(let dialogID, let after):
            let page = (try? service.cachedMessages(dialogID: dialogID, after: MessagePosition(dateSent: after.dateSent, id: after.id),
                                                    limit: Conversation.pageSize)) ?? []
            return [.newerLoaded(dialogID: dialogID, shown(page), latest: page.count < Conversation.pageSize)]
        case .download(let messageID, let index):
            return download(messageID: messageID, index: index, into: nil)
        case .fetchPreview(let messageID, let index):
            // Asked only when the view shows images (docs/architecture.md, "The chat view").
            try? PrivateFiles.ensureDirectory(previewDirectory)
            return download(messageID: messageID, index: index, into: previewDirectory)
        case .drawPreview(let request):
            // Answered from the drawer's queue through the inbox (`previewDrawn`).
            previewDrawer.draw(request)
        case .attach(let path, let dialogID):
            live.post(LiveChat.FileCommand.attach(path: path, dialogID: dialogID))
        case .notify(let title, let body):
            notifier(title, body)
        case .quit:
            break
        case .reply(let text, let dialogID, let original):
            guard let custom = service.quoting(original, as: .reply) else { return [.notice("that message is not in the cache yet")] }
            return send(text, dialogID: dialogID, model: model, custom: custom)
        case .forward(let messageID, let target):
            guard let custom = service.quoting(messageID, as: .forward) else { return [.notice("that message is not in the cache yet")] }
            let events = send(QBQuotedMessages.forwardedText, dialogID: target, model: model, custom: custom)
            return target == model.conversation?.dialog.id ? events : events.filter { if case .notice = $0 { true } else { false } }
        case .copy(let text):
            clipboard(text)
        case .edit(let messageID, let dialogID, let text):
            live.post(ChatEngine.Command.edit(messageID: messageID, dialogID: dialogID, text: text))
        case .delete(let messageID, let dialogID):
            live.post(ChatEngine.Command.delete(messageID: messageID, dialogID: dialogID))
        case .fetchAvatar(let userID):
            live.post(LiveChat.FileCommand.avatar(userID: userID, directory: avatarDirectory))
        case .keepDraft(let dialogID, let text, let cursor):
            service.keepDraft(CachedDraft(dialogID: dialogID, text: text, cursor: cursor))
        case .answerContact(let userID, let accept):
            live.post(ChatEngine.Command.answerContact(userID: userID, accept: accept))
        case .block(let userID, let blocking):
            live.post(ChatEngine.Command.block(userID: userID, blocking ? .block : .unblock))
        }
        return []
    }

    /// A dialog's newest page and its outbox entries, from the cache.
    private func open(_ id: DialogID) -> [ScreenEvent] {
        [ChatViewRecords.conversationLoaded(service.openedDialog(id: id, pageSize: Conversation.pageSize), id: id, me: service.me)]
    }

    /// Into the outbox first (claimed by this process), then to the network thread to
    /// send; a text over 32 KiB goes as several messages, split at line breaks, as `send` does.
    /// `custom`: a reply's or a forward's parameters, which go with the first part only.
    private func send(_ text: String, dialogID: DialogID, model: ScreenModel, custom: [String: String] = [:]) -> [ScreenEvent] {
        var ids: [String] = []
        for part in MessageSplitter.split(text) {
            do { ids.append(try service.enqueue(part, to: dialogID, owner: owner, custom: ids.isEmpty ? custom : [:])) } catch {
                return [.notice("not sent: \(error.message)")]
            }
        }
        sent += ids
        for id in ids { live.post(ChatEngine.Command.deliver(clientID: id, dialogID: dialogID)) }
        let sending = Set((model.conversation?.pending ?? []).filter { $0.delivery == .sending }.map(\.id) + (model.connection == .connected ? ids : []))
        return [.pendingChanged(dialogID: dialogID, pendingEntries(of: dialogID, sending: sending))]
    }

    /// How many of the messages sent from this view are still in the outbox.
    func undelivered() -> Int {
        let waiting = Set(((try? service.pendingOutbox()) ?? []).map(\.clientMessageID))
        return sent.filter { waiting.contains($0) }.count
    }

    private func pendingEntries(of dialogID: DialogID, sending: Set<String>) -> [ShownMessage] {
        ((try? service.pendingOutbox(dialogID: dialogID)) ?? []).map { ChatViewRecords.pending($0, me: service.me, inFlight: sending) }
    }

    /// `directory` nil: the current one, under the attachment's name.
    private func download(messageID: String, index: Int, into directory: String?) -> [ScreenEvent] {
        guard let message = try? service.cachedMessage(id: messageID) else { return [.notice("that message is not in the cache yet")] }
        let attachments = message.attachments
        guard index < attachments.count, let uid = attachments[index].id, !uid.isEmpty else {
            return [.notice("that attachment names no file")]
        }
        live.post(LiveChat.FileCommand.download(messageID: messageID, attachment: index, uid: uid, name: attachments[index].name ?? uid,
                                 directory: directory))
        return []
    }

    private func shown(_ messages: [CachedMessage]) -> [ShownMessage] {
        ChatViewRecords.messages(messages, me: service.me, names: service.senderNames(of: messages))
    }
}

@available(*, unavailable)
extension ChatEffects: Sendable {}
