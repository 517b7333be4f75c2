/// `--images`: how image attachments are previewed. `auto` lets the edge choose
/// from what the terminal supports; `none` shows name, size and progress only.
package enum ImageMode: String, Sendable, CaseIterable {
    case auto, symbols, sixel, kitty, none
}
