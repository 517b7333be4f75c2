#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatView
import Diagnostics
import MessageCache
import Messaging
import Synchronization

/// The chat engine's events as the chat view's (docs/architecture.md, "The chat view"):
/// each made a `ScreenEvent` as the view shows it (`ChatViewRecords`: everything another
/// user wrote made safe for a terminal) and handed to `deliver` (the view's inbox). Called
/// from the engine's thread and the files' thread; the names it has learnt are its only state.
package final class ChatViewFeed: Sendable {
    private let deliver: @Sendable (ScreenEvent) -> Void
    private let me: Int
    private let names = Mutex<[Int: String]>([:])

    package init(me: Int, deliver: @escaping @Sendable (ScreenEvent) -> Void) { self.me = me; self.deliver = deliver }

    package func post(_ event: ChatEngineEvent) {
        if let shown = screenEvent(for: event) { deliver(shown) }
    }

    package func screenEvent(for event: ChatEngineEvent) -> ScreenEvent? {
        switch event {
        case .connection(let change):
            return .connection(Self.state(change, now: Date().timeIntervalSince1970))
        case .heard(let batch):
            return .messagesArrived(shown(batch.map(\.message)))
        case .delivered(let messages):
            return .messagesArrived(shown(messages))
        case .caughtUp(_, let messages):
            return .historyArrived(shown(messages))
        case .changed(let messages):
            return .messagesChanged(shown(messages))
        case .olderLoaded(let dialogID, let before, let page, let exhausted):
            return .olderLoaded(dialogID: dialogID, before: MessageCursor(dateSent: before.dateSent, id: before.id), shown(page),
                                exhausted: exhausted)
        case .outbox(let dialogID, let entries, let inFlight):
            return .pendingChanged(dialogID: dialogID, entries.map { ChatViewRecords.pending($0, me: me, inFlight: inFlight) })
        case .typing(let user, let dialogID, let state):
            return TypingState(rawValue: state.rawValue).map { .typing(userID: user, dialogID: dialogID, $0) }
        case .dialogs(let dialogs, let shownTitles):
            let known = names.withLock { $0 }
            return .dialogsLoaded(dialogs.map { ChatViewRecords.dialog($0, me: me, names: known, shownTitle: shownTitles[$0.id]) })
        case .names(let learnt):
            names.withLock { $0.merge(learnt) { $1 } }
            return .names(learnt.mapValues { TerminalText.sanitize($0, newlines: .asSpaces) })
        case .transfer(let update):
            return .transfer(messageID: update.messageID, attachment: update.attachment, Self.transfer(update), localPath: update.localPath)
        case .notice(let notice):
            return .notice(TerminalText.sanitize(notice.description, newlines: .asSpaces))
        case .dialogNotice:
            // The dialogs that follow it (`.dialogs`) show what changed.
            return nil
        case .presence(let user, let presence):
            return .presence(userID: user, Self.presence(presence))
        case .edited(let messages):
            return .messagesEdited(shown(messages))
        case .removed(let dialogID, let ids):
            return .messagesRemoved(dialogID: dialogID, ids: ids)
        case .avatar(let userID, let path):
            return .avatarFetched(userID: userID, path: path)
        case .contact(let user, let news):
            switch news {
            case .requested: return .contactRequest(userID: user, waiting: true)
            case .withdrawn, .answered: return .contactRequest(userID: user, waiting: false)
            case .accepted, .rejected:
                return .notice(ContactText.line(news, name: names.withLock { $0[user] } ?? "user \(user)", login: nil))
            }
        case .refused(let dialogID, let id, let failure):
            return .messageRefused(dialogID: dialogID, id: id, reason: TerminalText.sanitize(failure.message, newlines: .asSpaces))
        case .blocked(let users):
            return .blockedChanged(users)
        }
    }

    private func shown(_ messages: [CachedMessage]) -> [ShownMessage] {
        let known = names.withLock { $0 }
        return messages.map { ChatViewRecords.message($0, me: me, names: known) }
    }

    /// The status line's connection: a wait after a failure is "offline, next try at …".
    package static func state(_ change: ChatConnectionChange, now: Double) -> ConnectionState {
        switch change {
        case .connecting: return .connecting
        case .connected: return .connected
        case .lost(let failure), .gaveUp(let failure): return .offline(reason(failure), retryAt: nil)
        case .retrying(let seconds, _, let failure?): return .offline(reason(failure), retryAt: now + seconds)
        case .retrying(let seconds, _, nil): return .reconnecting(at: now + seconds)
        }
    }

    /// One line for the status bar. A session chat cannot authenticate with keeps its hint:
    /// the view never asks for a password, so what to do is only said there.
    package static func reason(_ failure: Failure) -> String {
        let line = failure.kind == .authentication ? failure.description : failure.message
        return TerminalText.sanitize(line, newlines: .asSpaces)
    }

    package static func transfer(_ update: TransferUpdate) -> Transfer {
        let direction: Transfer.Direction = switch update.direction {
        case .upload: .upload
        case .download: .download
        case .preview: .preview
        }
        let outcome: Transfer.Outcome = switch update.outcome {
        case .running: .running
        case .succeeded: .succeeded
        case .failed(let reason): .failed(TerminalText.sanitize(reason, newlines: .asSpaces))
        }
        return Transfer(direction: direction, done: update.done, total: update.total, outcome: outcome)
    }
}
