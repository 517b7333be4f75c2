/// How the conversation is laid out and coloured: the config file's `chatView`
/// section (README, "Customising the chat view"), read at the edge. The defaults
/// are the layout the view has without a config section: cells with names and
/// times, no avatars.
package struct ChatViewSettings: Hashable, Sendable {
    /// Beside the first incoming cell of a run: the sender's picture, their
    /// initials on a colour of their own, or nothing.
    package enum Avatars: String, Hashable, Sendable, CaseIterable { case image, initials, none }

    package var avatars: Avatars = .none
    /// The sender's name above a run of incoming cells (`<name>` in the compact layout).
    package var nameLabels = true
    /// The time under each cell (outgoing cells keep their state).
    package var timeLabels = true
    package var timeFormat = TimeFormat.standard
    /// False: one line per message, `16:51 <bob> text`, as irssi shows them.
    package var bubbles = true
    package var colors = ViewColors()
    /// Whether the user wants to be notified of messages; carried for whatever notifies,
    /// the layout does not read it.
    package var notify = false

    package init() {}
}

/// Colours the config chose (palette numbers, 0–255); nil keeps the theme's own.
package struct ViewColors: Hashable, Sendable {
    /// Incoming cells' borders.
    package var incoming: UInt8?
    /// Outgoing cells' borders.
    package var outgoing: UInt8?
    /// Senders' names (in groups too, where each has a colour of their own otherwise).
    package var names: UInt8?
    /// The times under cells.
    package var times: UInt8?
    /// Outgoing messages' states (sending…, ✓, ✓✓); read and failed keep theirs.
    package var states: UInt8?

    package init(incoming: UInt8? = nil, outgoing: UInt8? = nil, names: UInt8? = nil, times: UInt8? = nil, states: UInt8? = nil) {
        self.incoming = incoming; self.outgoing = outgoing; self.names = names; self.times = times; self.states = states
    }
}
