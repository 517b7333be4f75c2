/// Which rows of which messages fill the conversation area, found from the scroll
/// anchor upwards: only the blocks on the screen are laid out, so a keystroke costs
/// the same with ten messages loaded or six hundred. The update uses it to know what
/// was seen (markers) and when the top is near (load older); the renderer to draw.
package struct ConversationViewport {
    /// The rows `firstRow..<firstRow + rowCount` of `block` (entry `index`), drawn from screen row `screenRow`.
    package struct Slice {
        package var index: Int
        package var block: MessageBlock
        package var firstRow: Int
        package var rowCount: Int
        package var screenRow: Int
    }

    /// Top to bottom.
    package var slices: [Slice] = []
    /// The first entry's first row is on the screen.
    package var showsTop = false
    /// Rows left empty above the content (it is shorter than the area).
    package var emptyRows = 0

    /// The area is `width` × `height`.
    package init(_ conversation: Conversation, width: Int, height: Int, context: LayoutContext) {
        let entries = conversation.entries
        guard height > 0, !entries.isEmpty else {
            showsTop = true
            emptyRows = max(0, height)
            return
        }
        var index = entries.count - 1
        var hidden = 0
        if let anchor = conversation.anchor, let found = conversation.index(of: anchor.id) {
            index = found
            hidden = anchor.hiddenRows
        }
        var context = context
        context.selection = conversation.selection
        var remaining = height
        var reversed: [Slice] = []
        var first = true
        while remaining > 0 && index >= 0 {
            let block = MessageBlock(entries[index], previous: index > 0 ? entries[index - 1] : nil, width: width, context: context)
            let bottom = first ? max(1, block.height - min(hidden, block.height - 1)) : block.height
            first = false
            let shown = min(remaining, bottom)
            remaining -= shown
            reversed.append(Slice(index: index, block: block, firstRow: bottom - shown, rowCount: shown, screenRow: remaining))
            if index == 0 && bottom - shown == 0 { showsTop = true }
            index -= 1
        }
        emptyRows = remaining
        slices = reversed.reversed()
    }

    /// The entries at least partly on the screen.
    package var visibleIndices: [Int] { slices.map(\.index) }

    /// The anchor that puts the top of entry `index` at the top of an area `height`
    /// rows tall; nil when everything from there on fits (then the view follows the end).
    package static func anchorShowingTop(of index: Int, in conversation: Conversation, width: Int, height: Int,
                                        context: LayoutContext) -> ScrollAnchor? {
        let entries = conversation.entries
        var context = context
        context.selection = conversation.selection
        var rows = 0
        var j = max(0, index)
        while j < entries.count {
            let h = MessageBlock(entries[j], previous: j > 0 ? entries[j - 1] : nil, width: width, context: context).height
            if rows + h >= height { return ScrollAnchor(id: entries[j].id, hiddenRows: rows + h - height) }
            rows += h
            j += 1
        }
        if conversation.newerTrimmed, let last = entries.last { return ScrollAnchor(id: last.id, hiddenRows: 0) }
        return nil
    }
}
