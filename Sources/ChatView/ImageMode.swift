/// `--images`: how image attachments are previewed. `auto` lets the preview
/// provider choose from what the terminal supports; `none` shows name, size and
/// progress only, as every mode does when no provider is installed.
package enum ImageMode: String, Sendable, CaseIterable {
    case auto, symbols, sixel, kitty, none
}
