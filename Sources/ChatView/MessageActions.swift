/// What a selected cell's actions leave open in the model (`ScreenUpdate+Actions.swift`):
/// a reply or an edit being written, a forward's dialog being picked, a question asked.
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

/// `f`: the dialogs to forward a message to, over the conversation; typing filters them.
package struct Forwarding: Hashable, Sendable {
    package var message: ShownMessage
    package var picker: DialogPicker

    package init(message: ShownMessage, dialogs: [DialogSummary]) {
        self.message = message
        picker = DialogPicker()
        picker.all = dialogs
        picker.filter = ""
        picker.selectedID = dialogs.first?.id
    }
}

/// A question on the status line that the next key answers (`y` yes, anything else no).
package enum Confirmation: Hashable, Sendable {
    /// `x`: delete this message (one of ours) for everyone.
    case delete(ShownMessage)

    package var question: String {
        switch self {
        case .delete: return "delete this message? y/n"
        }
    }
}
