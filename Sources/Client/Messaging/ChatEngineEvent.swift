import Diagnostics
import MessageCache
import XMPPTransport
import ChatIdentifiers

/// What a chat engine tells its owner, in order, on the engine's thread (docs/architecture.md,
/// "The chat engine"). One enum for everything: a command prints what it cares about, the chat
/// view turns each into its own events.
package enum ChatEngineEvent: Sendable, Equatable {
    /// The connection: connecting, up, lost, waiting to try again, given up.
    case connection(ChatConnectionChange)
    /// Messages heard, cached, in the order they came: from others (each once), and ours
    /// from another device (`outgoing`). One batch of the connection's events.
    case heard([HeardMessage])
    /// Our messages the server acknowledged, as history keeps them now.
    case delivered([CachedMessage])
    /// Messages whose delivered or read state changed (markers heard, a catch-up's fresh state).
    case changed([CachedMessage])
    /// The followed dialog brought up to date after a connect: what the cache lacked.
    case caughtUp(dialogID: DialogID, [CachedMessage])
    /// A page of the messages before a position (oldest first), from the server;
    /// `exhausted`: there are none before them.
    case olderLoaded(dialogID: DialogID, before: MessagePosition, [CachedMessage], exhausted: Bool)
    /// The followed dialog's outbox entries now; `inFlight`: written, not acknowledged yet.
    case outbox(dialogID: DialogID, [OutboxEntry], inFlight: Set<String>)
    /// Someone's chat state (XEP-0085); `dialogID` nil when the notification named none.
    case typing(userID: Int, dialogID: DialogID?, ChatState)
    /// A system notification brought a dialog: "alice added you to ops".
    case dialogNotice(DialogNotice)
    /// The dialogs as the cache has them now (with `Settings.reportsDialogList`).
    /// `shownTitles`: the titles other dialogs share, with the end of the id after them, as
    /// `chatctl dialogs` shows them (`DialogNameIndex.suffixedTitles`).
    case dialogs([CachedDialog], shownTitles: [DialogID: String])
    /// Display names learnt for the user ids the events name (before the event that needs them).
    case names([Int: String])
    /// An attachment's transfer moved on.
    case transfer(TransferUpdate)
    /// Something a person may want to know; nothing the engine cannot carry on after.
    case notice(ChatEngineNotice)
    /// A user came online or went offline, or their last activity was learnt (ChatEngine+Presence.swift).
    case presence(userID: Int, PeerPresence)
    /// Messages their senders edited, as the cache has them now.
    case edited([CachedMessage])
    /// Messages deleted for everyone, gone from the cache.
    case removed(dialogID: DialogID, ids: [String])
    /// A user's avatar file, fetched by the files' thread (`LiveChat.FileCommand.avatar`); nil: none.
    case avatar(userID: Int, path: String?)
    /// The contact list (ChatEngine+Contacts.swift): someone asks to be the user's contact,
    /// answered the user's request or withdrew theirs, or the user answered here.
    case contact(userID: Int, ContactBook.News)
    /// One of our messages the server refused for good (the other person blocks us, say): it
    /// left the outbox and is not sent again.
    case refused(dialogID: DialogID, clientMessageID: String, Failure)
    /// Whom the user blocks now, read after a connect, a change of ours or another session's
    /// (with `Settings.tracksBlocking`, and after a `block` command).
    case blocked(Set<Int>)
}

/// A message heard live or in a filled gap.
package struct HeardMessage: Sendable, Equatable {
    package var message: CachedMessage
    /// Ours, sent from another device (a carbon, a room's echo).
    package var outgoing: Bool

    package init(_ message: CachedMessage, outgoing: Bool) { self.message = message; self.outgoing = outgoing }
}

/// Where a page of history ends: `date_sent` counts whole seconds, so the id breaks ties.
package struct MessagePosition: Sendable, Hashable {
    /// Unix seconds; `Int.max`: after everything.
    package var dateSent: Int
    package var id: String

    package init(dateSent: Int, id: String) { self.dateSent = dateSent; self.id = id }
}

/// The connection as a chat engine reports it.
package enum ChatConnectionChange: Sendable, Equatable, CustomStringConvertible {
    case connecting
    /// Connected and joined: following this many dialogs; `again` after a loss.
    case connected(following: Int, again: Bool)
    case lost(Failure)
    /// The next attempt comes in `seconds`, at most `ceiling`; `after`: the attempt that just failed.
    case retrying(seconds: Double, ceiling: Double, after: Failure?)
    /// No more attempts (`ReconnectPolicy`): what is not delivered waits in the outbox.
    case gaveUp(Failure)

    /// As a line on stderr (`listen`, `send --lines`); nil for what is not worth a line.
    package var description: String {
        switch self {
        case .connecting: return "connecting"
        case .connected(let count, false): return "listening to \(count) dialog\(count == 1 ? "" : "s")"
        case .connected(_, true): return "reconnected"
        case .lost(let failure): return "connection lost (\(failure.message)); reconnecting"
        case .retrying(_, _, nil): return "reconnecting"
        case .retrying(_, let ceiling, let failure?): return "reconnect failed (\(failure.message)); retrying in up to \(Int(ceiling)) s"
        case .gaveUp(let failure): return failure.message
        }
    }
}

/// A transfer of one attachment, as the chat view shows it.
package struct TransferUpdate: Sendable, Equatable {
    package enum Direction: Sendable, Equatable { case upload, download, preview }
    package enum Outcome: Sendable, Equatable {
        case running
        case succeeded
        case failed(String)
    }
    /// The message (its outbox id while it is queued) and the attachment's index in it.
    package var messageID: String
    package var attachment: Int
    package var direction: Direction
    /// The file's name (the sender's, for one that came from someone else).
    package var name: String
    package var done: Int64
    package var total: Int64?
    package var outcome: Outcome
    /// Where the file is on this machine, once known (sent from here, or saved).
    package var localPath: String?

    package init(messageID: String, attachment: Int, direction: Direction, name: String, done: Int64 = 0, total: Int64? = nil,
                 outcome: Outcome = .running, localPath: String? = nil) {
        self.messageID = messageID; self.attachment = attachment; self.direction = direction; self.name = name
        self.done = done; self.total = total; self.outcome = outcome; self.localPath = localPath
    }
}
