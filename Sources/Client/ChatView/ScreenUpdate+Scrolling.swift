/// Scrolling moves the anchor (the message at the bottom of the view) by rows;
/// reaching the top asks for older messages, reaching the bottom of a window that
/// let newer ones go asks for those. What is on the screen counts as seen.
extension ScreenUpdate.Step {
    var layoutContext: LayoutContext {
        LayoutContext(profile: model.profile, clock: model.clock, now: now, selection: model.conversation?.selection,
                      previews: model.previews, settings: model.settings, avatars: model.avatars, names: model.names)
    }

    var viewport: ConversationViewport {
        guard let conversation = model.conversation else {
            return ConversationViewport(Conversation(dialog: DialogSummary(id: "", title: "", kind: .private)), width: 0, height: 0,
                                        context: layoutContext)
        }
        let areas = ScreenAreas(model)
        return ConversationViewport(conversation, width: areas.bodyWidth, height: areas.bodyHeight, context: layoutContext)
    }

    func block(_ index: Int, in conversation: Conversation) -> MessageBlock {
        let entries = conversation.entries
        return MessageBlock(entries[index], previous: index > 0 ? entries[index - 1] : nil, width: ScreenAreas(model).bodyWidth,
                            context: layoutContext)
    }

    /// The anchor as an index and hidden rows (the newest entry when following).
    func resolvedAnchor(_ conversation: Conversation) -> (index: Int, hidden: Int)? {
        let entries = conversation.entries
        guard !entries.isEmpty else { return nil }
        if let anchor = conversation.anchor, let index = conversation.index(of: anchor.id) { return (index, anchor.hiddenRows) }
        return (entries.count - 1, 0)
    }

    mutating func scrollUp(_ rows: Int) {
        guard var conversation = model.conversation, var (index, hidden) = resolvedAnchor(conversation) else { return }
        hidden += rows
        var height = block(index, in: conversation).height
        while hidden >= height && index > 0 {
            hidden -= height
            index -= 1
            height = block(index, in: conversation).height
        }
        hidden = min(hidden, height - 1)
        conversation.anchor = ScrollAnchor(id: conversation.entries[index].id, hiddenRows: hidden)
        model.conversation = conversation
        // Past the top: the first message's top stays at the top of the view.
        if viewport.emptyRows > 0 {
            let areas = ScreenAreas(model)
            let context = layoutContext
            model.conversation?.anchor = ConversationViewport.anchorShowingTop(of: 0, in: conversation, width: areas.bodyWidth,
                                                                              height: areas.bodyHeight, context: context)
        }
    }

    mutating func scrollDown(_ rows: Int) {
        guard var conversation = model.conversation, conversation.anchor != nil,
              var (index, hidden) = resolvedAnchor(conversation) else { return }
        let entries = conversation.entries
        hidden -= rows
        while hidden < 0 && index + 1 < entries.count {
            index += 1
            hidden += block(index, in: conversation).height
        }
        if hidden < 0 { hidden = 0 }
        if index == entries.count - 1 && hidden == 0 && !conversation.newerTrimmed {
            conversation.anchor = nil
            conversation.newBelow = 0
        } else {
            conversation.anchor = ScrollAnchor(id: entries[index].id, hiddenRows: hidden)
        }
        model.conversation = conversation
    }

    mutating func scrollToTop() {
        guard let conversation = model.conversation, !conversation.entries.isEmpty else { return }
        let areas = ScreenAreas(model)
        let context = layoutContext
        model.conversation?.anchor = ConversationViewport.anchorShowingTop(of: 0, in: conversation, width: areas.bodyWidth,
                                                                          height: areas.bodyHeight, context: context)
    }

    mutating func scrollToBottom() {
        guard let conversation = model.conversation else { return }
        if conversation.newerTrimmed {
            // The newest messages were let go: read them back as when the dialog opened.
            effects.append(.openDialog(id: conversation.dialog.id))
            var fresh = Conversation(dialog: conversation.dialog)
            fresh.typing = conversation.typing
            model.conversation = fresh
            return
        }
        model.conversation?.anchor = nil
        model.conversation?.newBelow = 0
    }

    /// Keeps entry `index` (the selection) on the screen, scrolling as little as it takes.
    mutating func keepVisible(_ index: Int) {
        guard let conversation = model.conversation else { return }
        let shown = viewport
        guard let first = shown.slices.first, let last = shown.slices.last else { return }
        let areas = ScreenAreas(model)
        let fullyShown = shown.slices.first { $0.index == index }.map { $0.rowCount == $0.block.height } ?? false
        if fullyShown { return }
        if index <= first.index {
            let context = layoutContext
            model.conversation?.anchor = ConversationViewport.anchorShowingTop(of: index, in: conversation, width: areas.bodyWidth,
                                                                              height: areas.bodyHeight, context: context)
        } else if index >= last.index {
            model.conversation?.anchor = index == conversation.entries.count - 1 && !conversation.newerTrimmed
                ? nil : ScrollAnchor(id: conversation.entries[index].id, hiddenRows: 0)
        }
    }

    /// The previews in the model that the screen draws now (an image's own, or one
    /// shown meanwhile): trimming the model's previews keeps them.
    var previewsOnScreen: Set<PreviewRequest> {
        guard model.screen == .conversation, !model.isTooSmall else { return [] }
        var shown: Set<PreviewRequest> = []
        for slice in viewport.slices {
            for request in slice.block.previewRequests {
                if let key = model.previews.preview(for: request)?.key { shown.insert(key) }
            }
        }
        return shown
    }

    /// What the screen shows now: incoming messages not read yet are marked
    /// displayed (once); near the top, older messages are asked for; at the bottom
    /// of a window that let newer ones go, those.
    mutating func seeWhatIsVisible() {
        guard var conversation = model.conversation, conversation.loaded else { return }
        let shown = viewport
        let entries = conversation.entries
        var seen: [String] = []
        for index in shown.visibleIndices where index < conversation.messages.count {
            let message = conversation.messages[index]
            if !message.outgoing && !message.readByMe {
                conversation.messages[index].readByMe = true
                seen.append(message.id)
            }
        }
        if !seen.isEmpty { effects.append(.markDisplayed(ids: seen, dialogID: conversation.dialog.id)) }
        // Images on the screen: fetched to show their previews, then drawn by the edge, each once.
        if model.profile.images != .none {
            for index in shown.visibleIndices where index < conversation.messages.count {
                for (number, attachment) in conversation.messages[index].attachments.enumerated()
                where attachment.isImage && attachment.localPath == nil && attachment.uid != nil && attachment.transfer == nil {
                    conversation.messages[index].attachments[number].transfer = Transfer(direction: .preview)
                    effects.append(.fetchPreview(messageID: conversation.messages[index].id, attachment: number))
                }
            }
            for slice in shown.slices {
                for request in slice.block.previewRequests where model.previews.ask(request) { effects.append(.drawPreview(request)) }
            }
        }
        askForAvatars(shown)
        let topIndex = shown.visibleIndices.first ?? 0
        if !conversation.olderExhausted && !conversation.loadingOlder && !conversation.olderWaitsForConnection
            && (shown.showsTop || topIndex < 20) {
            conversation.loadingOlder = true
            let before = conversation.messages.first?.cursor ?? MessageCursor(dateSent: Int.max, id: "")
            effects.append(.loadOlder(dialogID: conversation.dialog.id, before: before))
        }
        if conversation.newerTrimmed && !conversation.loadingNewer, let bottom = shown.visibleIndices.last,
           bottom >= entries.count - 20, let last = conversation.messages.last {
            conversation.loadingNewer = true
            effects.append(.loadNewer(dialogID: conversation.dialog.id, after: last.cursor))
        }
        if conversation.anchor == nil { conversation.newBelow = 0 }
        model.conversation = conversation
    }
}
