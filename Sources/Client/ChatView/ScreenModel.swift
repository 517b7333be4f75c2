import ChatIdentifiers

/// The whole state of `chatctl chat`, a value: which screen shows, the dialogs,
/// the open conversation with its scroll position, the input, typing, the
/// connection, the image previews drawn. Only `ScreenUpdate.update` changes it.
package struct ScreenModel: Sendable {
    package enum Screen: Hashable, Sendable { case dialogs, conversation }

    package let me: Int
    package var width: Int
    package var height: Int
    /// Unix seconds, as of the last event.
    package var now: Double
    package var profile: RenderProfile
    package var clock: TimeLabels
    package var screen: Screen = .dialogs
    /// Opened with a dialog on the command line: Esc quits instead of going back to the list.
    package var openedDirectly = false
    package var connection: ConnectionState = .connecting
    package var dialogs = DialogPicker()
    package var conversation: Conversation?
    package var input = LineEditor()
    /// The input of each dialog left (its text, cursor and history), given back when the dialog
    /// opens again, as chat apps keep drafts; sending empties it. The edge fills it with the
    /// drafts of earlier runs and keeps each change (`keepDraft`).
    package var drafts: [DialogID: LineEditor] = [:]
    /// Display names by user id.
    package var names: [Int: String] = [:]
    /// A line for the status bar, shown until `noticeUntil`.
    package var notice: String?
    package var noticeUntil: Double = 0
    /// The chat state we last sent, when, and when the user last edited the input.
    package var typingSent: TypingState = .active
    package var typingSentAt: Double = 0
    package var lastEditAt: Double = 0
    package var quitting = false
    /// Image previews the edge drew, and those asked for.
    package var previews = PreviewCache()
    /// Other users' presence, as last heard (ScreenModel+Presence.swift).
    package var presence: [Int: Presence] = [:]
    /// Whom the user blocks (their privacy list, as the engine last read it): private dialogs
    /// with them are marked in the list and the header.
    package var blocked: Set<Int> = []

    /// A private dialog with someone the user blocks.
    package func isBlocked(_ dialog: DialogSummary) -> Bool {
        dialog.kind == .private && dialog.peerID.map(blocked.contains) == true
    }
    /// A reply or an edit being written (`r`, `e` on a selected cell).
    package var composing: Composing?
    /// A forward's dialog being picked (`f`).
    package var forwarding: Forwarding?
    /// A question on the status line the next key answers (`x`).
    package var confirming: Confirmation?
    /// The keys and commands, over the screen (`/help`, F1).
    package var help: HelpOverlay?
    /// The config's `chatView` section.
    package var settings = ChatViewSettings()
    /// Senders' avatar files asked for and fetched (`avatars: image`).
    package var avatars = AvatarFiles()
    /// Users whose contact requests wait for an answer, oldest first (ContactRequests.swift).
    package var contactRequests: [Int] = []

    package init(me: Int, width: Int, height: Int, now: Double, profile: RenderProfile = RenderProfile(), clock: TimeLabels = .utc) {
        self.me = me; self.width = width; self.height = height; self.now = now; self.profile = profile; self.clock = clock
    }

    /// The smallest screen laid out; below it the view says it needs more room.
    package static let minimumWidth = 40
    package static let minimumHeight = 12

    package var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }
}
