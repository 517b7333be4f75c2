/// The whole state of `chatctl chat`, a value: which screen shows, the dialogs,
/// the open conversation with its scroll position, the input, typing, the
/// connection. Only `ScreenUpdate.update` changes it.
public struct ScreenModel: Sendable {
    public enum Screen: Hashable, Sendable { case dialogs, conversation }

    public let me: Int
    public var width: Int
    public var height: Int
    /// Unix seconds, as of the last event.
    public var now: Double
    public var profile: RenderProfile
    public var clock: TimeLabels
    public var screen: Screen = .dialogs
    /// Opened with a dialog on the command line: Esc quits instead of going back to the list.
    public var openedDirectly = false
    public var connection: ConnectionState = .connecting
    public var dialogs = DialogPicker()
    public var conversation: Conversation?
    public var input = LineEditor()
    /// Display names by user id.
    public var names: [Int: String] = [:]
    /// A line for the status bar, shown until `noticeUntil`.
    public var notice: String?
    public var noticeUntil: Double = 0
    /// The chat state we last sent, when, and when the user last edited the input.
    public var typingSent: TypingState = .active
    public var typingSentAt: Double = 0
    public var lastEditAt: Double = 0
    public var quitting = false

    public init(me: Int, width: Int, height: Int, now: Double, profile: RenderProfile = RenderProfile(), clock: TimeLabels = .utc) {
        self.me = me; self.width = width; self.height = height; self.now = now; self.profile = profile; self.clock = clock
    }

    /// The smallest screen laid out; below it the view says it needs more room.
    public static let minimumWidth = 40
    public static let minimumHeight = 12

    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }
}
