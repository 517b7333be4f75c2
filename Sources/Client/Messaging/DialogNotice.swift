import MessageCache

/// What `listen` tells a person when a system notification (docs/protocol.md §7)
/// brought a dialog: "alice added you to ops". The dialog is as the server lists it.
package struct DialogNotice: Sendable, Equatable {
    package enum Change: Sendable, Equatable {
        /// A dialog we did not have before: we were added (or it was created with us).
        case added
        /// A dialog we had, changed.
        case updated
    }

    package var change: Change
    package var dialog: CachedDialog
    /// Who sent the notification, when its sender was a user.
    package var actorID: Int?

    package init(change: Change, dialog: CachedDialog, actorID: Int?) {
        self.change = change; self.dialog = dialog; self.actorID = actorID
    }
}
