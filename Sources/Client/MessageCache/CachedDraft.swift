import ChatIdentifiers

/// Text the chat view's user typed in a dialog and left there, and where the cursor was
/// (in characters from the start).
package struct CachedDraft: Hashable, Sendable {
    package var dialogID: DialogID
    package var text: String
    package var cursor: Int

    package init(dialogID: DialogID, text: String, cursor: Int) {
        self.dialogID = dialogID; self.text = text; self.cursor = cursor
    }
}
