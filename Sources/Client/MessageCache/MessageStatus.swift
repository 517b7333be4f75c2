/// The state of one's own message: every cached message is on the server
/// (`sent`); `delivered` once another occupant's client has it, `read` once
/// another occupant has seen it. In a group, one other occupant is enough.
package enum MessageStatus: String, Sendable, Hashable, CaseIterable {
    case sent, delivered, read
}
