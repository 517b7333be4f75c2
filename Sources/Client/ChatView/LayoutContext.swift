/// What the layout of a conversation depends on beside its messages.
package struct LayoutContext {
    package var profile: RenderProfile
    package var clock: TimeLabels
    package var now: Double
    package var selection: String?
    /// The model's: an image takes the rows of the preview drawn for it.
    package var previews: PreviewCache
    /// The config's `chatView` section: avatars, labels, the compact layout.
    package var settings: ChatViewSettings
    /// The avatar files fetched (`avatars: image`).
    package var avatars: AvatarFiles
    /// Display names by user id (the model's): initials and the compact layout's `<name>`.
    package var names: [Int: String]

    package init(profile: RenderProfile, clock: TimeLabels, now: Double, selection: String?, previews: PreviewCache,
                 settings: ChatViewSettings = ChatViewSettings(), avatars: AvatarFiles = AvatarFiles(), names: [Int: String] = [:]) {
        self.profile = profile; self.clock = clock; self.now = now; self.selection = selection; self.previews = previews
        self.settings = settings; self.avatars = avatars; self.names = names
    }
}
