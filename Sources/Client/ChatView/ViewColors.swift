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
