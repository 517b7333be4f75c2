import ChatIdentifiers

/// Everything that changes the model, through one `ScreenUpdate.update`.
package enum ScreenEvent: Hashable, Sendable {
    case key(Key)
    /// Pasted text (bracketed paste): inserted whole, newlines kept.
    case paste(String)
    case resize(width: Int, height: Int)
    /// The clock moved on (typing timeouts, reconnect countdowns).
    case tick
    /// The dialogs, newest activity first (from the cache, after a sync).
    case dialogsLoaded([DialogSummary])
    /// A dialog opened: its newest messages from the cache, oldest first, and what
    /// still waits in the outbox for it. `names`: display names of its occupants.
    case conversationLoaded(DialogSummary, messages: [ShownMessage], pending: [ShownMessage], names: [Int: String])
    /// Messages heard live or just delivered, in any dialog: one of the newest second goes
    /// below what is shown, as it came.
    case messagesArrived([ShownMessage])
    /// Messages read from history (a gap filled, the server asked, the shared cache): in
    /// history's order, by date and id.
    case historyArrived([ShownMessage])
    /// Messages whose state changed (markers: delivered, read), in any dialog.
    case messagesChanged([ShownMessage])
    /// What the outbox holds for a dialog now, replacing what the view showed as pending.
    case pendingChanged(dialogID: DialogID, [ShownMessage])
    /// A page of the messages before `before` (oldest first), answering `loadOlder`;
    /// `exhausted`: there are none before them.
    case olderLoaded(dialogID: DialogID, before: MessageCursor, [ShownMessage], exhausted: Bool)
    /// A page of newer messages (oldest first) after messages the view let go; `latest`: up to now.
    case newerLoaded(dialogID: DialogID, [ShownMessage], latest: Bool)
    /// Someone's chat state; `dialogID` nil when the notification named none.
    case typing(userID: Int, dialogID: DialogID?, TypingState)
    case connection(ConnectionState)
    /// Progress of an attachment's transfer, by message id and attachment index.
    case transfer(messageID: String, attachment: Int, Transfer, localPath: String?)
    /// An image preview drawn in the background, answering `drawPreview`: the
    /// picture and the cells it covers, or why there is none.
    case previewDrawn(PreviewRequest, ImagePreview)
    /// Something to tell in the status line (an error, a saved file).
    case notice(String)
    /// Names learnt for user ids.
    case names([Int: String])
    /// A user came online or went offline.
    case presence(userID: Int, Presence)
    /// Messages their senders edited, with their new text.
    case messagesEdited([ShownMessage])
    /// Messages deleted for everyone.
    case messagesRemoved(dialogID: DialogID, ids: [String])
    /// A sender's avatar file, answering `fetchAvatar`: its path, or nil for none.
    case avatarFetched(userID: Int, path: String?)
    /// Someone asks to be the user's contact (`waiting`), or their request is answered or withdrawn.
    case contactRequest(userID: Int, waiting: Bool)
    /// One of our messages the server refused for good (the other person blocks us): marked, not sent again.
    case messageRefused(dialogID: DialogID, id: String, reason: String)
    /// Whom the user blocks now (`/block`, `/unblock`, another session's change, a connect).
    case blockedChanged(Set<Int>)
}
