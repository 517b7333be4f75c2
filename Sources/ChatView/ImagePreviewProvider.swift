/// The seam for inline image previews (docs/architecture.md, "The chat view").
/// The renderer asks, for each image attachment whose file is on this machine
/// (`ShownAttachment.localPath`), how large a block it takes and then for the block
/// itself. Both calls must be quick and give the same answer for the same
/// arguments (a provider keeps what it decoded); they run on the terminal's thread.
/// Without a provider, an image's cell shows its name, size and progress only.
package protocol ImagePreviewProvider: AnyObject {
    /// The block the image at `path` takes, at most `maxColumns` × `maxRows`
    /// (its aspect kept, a cell about twice as tall as wide); nil if it cannot be shown.
    func box(forImageAt path: String, maxColumns: Int, maxRows: Int, mode: ImageMode) -> CellBox?
    /// The image drawn into exactly `box`; nil if it cannot be drawn.
    func preview(ofImageAt path: String, box: CellBox, mode: ImageMode) -> ImagePreview?
}
