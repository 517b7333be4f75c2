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
