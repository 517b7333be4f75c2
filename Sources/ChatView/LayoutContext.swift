/// What the layout of a conversation depends on beside its messages.
package struct LayoutContext {
    package var profile: RenderProfile
    package var clock: TimeLabels
    package var now: Double
    package var selection: String?
    package var previews: ImagePreviewProvider?

    package init(profile: RenderProfile, clock: TimeLabels, now: Double, selection: String?, previews: ImagePreviewProvider?) {
        self.profile = profile; self.clock = clock; self.now = now; self.selection = selection; self.previews = previews
    }
}
