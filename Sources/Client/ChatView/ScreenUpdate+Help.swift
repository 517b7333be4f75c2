/// Keys while the help overlay shows: it scrolls, and Esc (or q, Enter, F1) closes it.
extension ScreenUpdate.Step {
    mutating func helpKey(_ key: Key) {
        guard var help = model.help else { return }
        let (visible, count) = HelpOverlay.extent(width: model.width, height: model.height, unicode: model.profile.unicode)
        let last = max(0, count - visible)
        switch key {
        case .escape, .enter, .character("q"), .function(1):
            model.help = nil
            return
        case .control("c"):
            model.help = nil
            return quit(interrupted: true)
        case .up, .character("k"), .wheelUp: help.top -= 1
        case .down, .character("j"), .wheelDown: help.top += 1
        case .pageUp: help.top -= visible
        case .pageDown, .character(" "): help.top += visible
        case .home: help.top = 0
        case .end: help.top = last
        default: break
        }
        help.top = max(0, min(last, help.top))
        model.help = help
    }
}
