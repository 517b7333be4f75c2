/// What the layout of a conversation depends on beside its messages.
public struct LayoutContext {
    public var profile: RenderProfile
    public var clock: TimeLabels
    public var now: Double
    public var selection: String?
    public var previews: ImagePreviewProvider?

    public init(profile: RenderProfile, clock: TimeLabels, now: Double, selection: String?, previews: ImagePreviewProvider?) {
        self.profile = profile; self.clock = clock; self.now = now; self.selection = selection; self.previews = previews
    }
}
