/// The keys that do something now, for the hint at the right of the conversation's input
/// row: what a selected message takes, a forward's or a question's keys, a reply's or an
/// edit's, else (with nothing typed) how to reach them. Most useful first: the renderer shows as many as fit.
package enum KeyHints {
    package static func items(_ model: ScreenModel, unicode: Bool) -> [String] {
        if model.forwarding != nil { return [unicode ? "↑↓ choose" : "up/down choose", "Enter forward", "Esc cancel"] }
        switch model.confirming {
        case .delete?: return ["y delete", "any other key keeps it"]
        case .block?: return ["y block", "any other key leaves it"]
        case .unblock?: return ["y unblock", "any other key leaves it"]
        case nil: break
        }
        if let conversation = model.conversation, let id = conversation.selection, let index = conversation.index(of: id) {
            return selected(conversation.entries[index], pending: conversation.pending.contains { $0.id == id }, unicode: unicode)
        }
        switch model.composing {
        case .reply?: return ["Enter send reply", "Esc cancel"]
        case .edit?: return ["Enter save", "Esc cancel"]
        case nil: break
        }
        // Text being written needs no hint: the row is the writer's.
        if !model.input.isEmpty { return [] }
        return ["Tab select", "/attach", "F1 help"]
    }

    /// The actions a selected message takes (ScreenUpdate+Actions.swift): only those that apply to it.
    static func selected(_ message: ShownMessage, pending: Bool, unicode: Bool) -> [String] {
        var items: [String] = []
        if !pending { items += ["r reply", "f forward"] }
        items.append("y copy")
        if message.outgoing && !pending { items += ["e edit", "x delete"] }
        if message.attachments.contains(where: { $0.uid != nil }) { items.append("d save") }
        items.append(unicode ? "↑↓ move" : "up/down move")
        items.append("Esc done")
        return items
    }

    /// The items that fit in `room` columns, joined by `separator`; nil when not even the first does.
    package static func line(_ items: [String], room: Int, separator: String, unicode: Bool) -> GlyphLine? {
        var shown: [String] = []
        for item in items {
            let candidate = (shown + [item]).joined(separator: separator)
            guard GlyphLine(candidate, unicode: unicode).width <= room else { break }
            shown.append(item)
        }
        return shown.isEmpty ? nil : GlyphLine(shown.joined(separator: separator), unicode: unicode)
    }
}
