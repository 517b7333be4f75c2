/// A reply or an edit being written, left open in the model by a selected cell's action
/// (`ScreenUpdate+Actions.swift`).
package enum Composing: Hashable, Sendable {
    /// `r`: the input's text goes as a reply quoting this message.
    case reply(ShownMessage)
    /// `e`: the input's text replaces this message's (one of ours).
    case edit(ShownMessage)

    package var message: ShownMessage {
        switch self {
        case .reply(let message), .edit(let message): return message
        }
    }
}
