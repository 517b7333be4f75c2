extension ScreenUpdate.Step {
    /// With `avatars: image`, the avatar of each sender whose run starts on the screen is
    /// asked of the edge once (`fetchAvatar`); their pictures are then drawn as previews.
    mutating func askForAvatars(_ shown: ConversationViewport) {
        guard model.settings.avatars == .image, model.profile.images != .none else { return }
        for slice in shown.slices where slice.block.avatar != nil {
            let sender = slice.block.message.senderID
            if model.avatars.ask(sender) { effects.append(.fetchAvatar(userID: sender)) }
        }
    }
}
