/// How the conversation is laid out and coloured: the config file's `chatView`
/// section (docs/chat-view.md, "Customising the chat view"), read at the edge. The defaults
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
    /// A message in another dialog not muted rings the bell, counts in the window title and
    /// makes a desktop notification (`chatView.notify`, `--no-notify` turns it off).
    package var notify = true

    package init() {}
}
