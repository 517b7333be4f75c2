/// A preview the chat view wants (`ScreenEffect.drawPreview`), and the key it is
/// kept under (`PreviewCache`): the image file on this machine, the most cells it
/// may take, and the profile it is drawn for (`--images`, colours, Unicode).
package struct PreviewRequest: Hashable, Sendable {
    package var path: String
    /// The preview is as large as fits in it, its shape kept: today at most two
    /// thirds of the width and `MessageBlock.maximumImageRows` rows.
    package var room: CellBox
    package var profile: RenderProfile

    package init(path: String, room: CellBox, profile: RenderProfile) {
        self.path = path; self.room = room; self.profile = profile
    }
}
