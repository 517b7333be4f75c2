extension MessageBlock {
    /// What stands beside the first incoming cell of a run, and the picture it asks to
    /// have drawn: with `avatars: image`, the sender's file once fetched (the update
    /// asks for it), drawn as symbols; its initials meanwhile, and for anyone without
    /// one, or when the view shows no images (`--images none`).
    static func avatar(for message: ShownMessage, firstOfRun: Bool, context: LayoutContext) -> (AvatarBadge?, PreviewRequest?) {
        let settings = context.settings
        guard firstOfRun, settings.avatars != .none else { return (nil, nil) }
        let name = context.names[message.senderID] ?? message.senderName
        let initials = AvatarBadge.initials(name, userID: message.senderID, unicode: context.profile.unicode)
        guard settings.avatars == .image, context.profile.images != .none, let path = context.avatars.path(of: message.senderID) else {
            return (initials, nil)
        }
        let request = AvatarBadge.request(path: path, profile: context.profile)
        if case .cells? = context.previews.preview(for: request)?.preview {
            return (.image(context.previews.preview(for: request)!.preview), request)
        }
        return (initials, request)
    }
}

extension AvatarBadge {
    static func initials(_ name: String, userID: Int, unicode: Bool) -> AvatarBadge {
        .initials(initials(of: name, unicode: unicode), userID: userID)
    }
}
