import Presentation

/// How a terminal is told of a message in another dialog (`chatView.notify`): the bell
/// always, and a desktop notification in the terminals known to make one of an escape
/// sequence (OSC 777 `notify`, or OSC 9). A terminal not known gets no sequence it
/// might print. Inside tmux the sequence goes through tmux's passthrough (shown when
/// `allow-passthrough` is on). Everything in it is another user's word: made inert first.
enum TerminalNotification {
    enum Desktop: Equatable { case osc777, osc9, none }

    /// What the terminal in `environment` shows. The variables a terminal sets of its own
    /// survive into tmux and ssh, where `TERM_PROGRAM` says only `tmux`.
    static func desktop(environment: [String: String]) -> Desktop {
        switch environment["TERM_PROGRAM"] ?? "" {
        case "WezTerm", "ghostty": return .osc777
        case "iTerm.app": return .osc9
        default: break
        }
        if environment["WEZTERM_PANE"] != nil || environment["GHOSTTY_RESOURCES_DIR"] != nil { return .osc777 }
        if environment["LC_TERMINAL"] == "iTerm2" || environment["KITTY_WINDOW_ID"] != nil { return .osc9 }
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("foot") || term.hasPrefix("rxvt-unicode") { return .osc777 }
        if term == "xterm-kitty" { return .osc9 }
        return .none
    }

    /// The bytes that ring the bell and, where it can, make a desktop notification.
    static func sequence(title: String, body: String, desktop: Desktop, insideTmux: Bool) -> String {
        let title = inert(title, limit: 80), body = inert(body, limit: 200)
        let notification: String
        switch desktop {
        case .osc777:
            // Fields are separated by ';': the title cannot hold one, the body (the last field) may.
            notification = "\u{1B}]777;notify;\(String(title.map { $0 == ";" ? "," : $0 }));\(body)\u{1B}\\"
        case .osc9:
            notification = "\u{1B}]9;\(title): \(body)\u{1B}\\"
        case .none:
            notification = ""
        }
        guard !notification.isEmpty else { return "\u{07}" }
        let wrapped = insideTmux ? "\u{1B}Ptmux;" + notification.replacingEscapes() + "\u{1B}\\" : notification
        return "\u{07}" + wrapped
    }

    /// The window title as OSC 2, made inert (ended by ST: a BEL is only ever the bell).
    static func titleSequence(_ title: String) -> String { "\u{1B}]2;\(inert(title, limit: 120))\u{1B}\\" }

    /// One line made safe for a terminal (TerminalText: no control character, no escape
    /// sequence, no bidi override), at most `limit` characters.
    static func inert(_ text: String, limit: Int) -> String {
        let out = TerminalText.sanitize(text, newlines: .asSpaces)
        return out.count > limit ? String(out.prefix(limit - 1)) + "…" : out
    }
}

private extension String {
    /// Each ESC doubled, as tmux's passthrough wants the sequence inside it.
    func replacingEscapes() -> String {
        var out = ""
        for character in self { out += character == "\u{1B}" ? "\u{1B}\u{1B}" : String(character) }
        return out
    }
}
