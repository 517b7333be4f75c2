import ChatIdentifiers

/// What the update asks the edge to do; the edge reports back with events.
package enum ScreenEffect: Hashable, Sendable {
    /// Load a dialog's newest messages and outbox entries (`conversationLoaded`).
    case openDialog(id: DialogID)
    /// The dialog is no longer on the screen: stop following it.
    case closeDialog(id: DialogID)
    /// Put a message in the outbox and send it (exactly once, as `send` does).
    case send(text: String, dialogID: DialogID)
    /// Send a chat state to the dialog's other occupants.
    case sendTyping(TypingState, dialogID: DialogID)
    /// These messages were on the screen: `displayed` markers, and read over REST.
    case markDisplayed(ids: [String], dialogID: DialogID)
    /// Older messages than `before`: from the cache, else from the server.
    case loadOlder(dialogID: DialogID, before: MessageCursor)
    /// Newer messages than `after`, from the cache.
    case loadNewer(dialogID: DialogID, after: MessageCursor)
    /// Save an attachment in the current directory.
    case download(messageID: String, attachment: Int)
    /// Fetch an image attachment into the preview cache (only when the profile shows images).
    case fetchPreview(messageID: String, attachment: Int)
    /// Decode and draw an image on the screen in the background, off the terminal's
    /// thread; answered by `previewDrawn` (once, whatever happens).
    case drawPreview(PreviewRequest)
    /// Upload a file and send it as a message with an attachment.
    case attach(path: String, dialogID: DialogID)
    /// Restore the terminal and exit; `interrupted` by ^C (exit as interrupted, 130).
    case quit(interrupted: Bool)
    /// Like `send`, as a reply quoting message `to` (docs/protocol.md §6).
    case reply(text: String, dialogID: DialogID, to: String)
    /// Forward message `messageID` to dialog `to`, quoted as the UI Kits do.
    case forward(messageID: String, to: DialogID)
    /// Put text on the terminal's clipboard (OSC 52).
    case copy(String)
    /// Replace the text of one of our messages (answered by `messagesEdited`).
    case edit(messageID: String, dialogID: DialogID, text: String)
    /// Delete one of our messages for everyone (answered by `messagesRemoved`).
    case delete(messageID: String, dialogID: DialogID)
    /// Tell the person at the terminal: the bell, and a desktop notification where the terminal makes one.
    case notify(title: String, body: String)
    /// Keep what is typed in the dialog, and where the cursor is, for when it opens again
    /// in a later run (empty text: no draft).
    case keepDraft(dialogID: DialogID, text: String, cursor: Int)
    /// Fetch a sender's avatar picture into the state directory, once (`avatars: image`);
    /// answered by `avatarFetched`, whatever happens.
    case fetchAvatar(userID: Int)
    /// Accept or refuse a user's contact request (`/accept`, `/reject`).
    case answerContact(userID: Int, accept: Bool)
    /// Block (`true`) or unblock the other person of a private dialog, once confirmed.
    case block(userID: Int, Bool)
}
