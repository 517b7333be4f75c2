/// What the layout of a conversation depends on beside its messages.
package struct LayoutContext {
    package var profile: RenderProfile
    package var clock: TimeLabels
    package var now: Double
    package var selection: String?
    /// The model's: an image takes the rows of the preview drawn for it.
    package var previews: PreviewCache

    package init(profile: RenderProfile, clock: TimeLabels, now: Double, selection: String?, previews: PreviewCache) {
        self.profile = profile; self.clock = clock; self.now = now; self.selection = selection; self.previews = previews
    }
}
