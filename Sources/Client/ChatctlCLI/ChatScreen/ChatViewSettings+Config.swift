import ChatView
import ClientConfiguration

extension ChatViewSettings {
    /// The config's `chatView` section as the view's settings. The time format is checked
    /// here, by the view's own reader of it: one it cannot read adds a line to `warnings`
    /// and the default stands.
    init(_ config: ChatViewConfig, warnings: inout [String]) {
        self.init()
        avatars = Avatars(rawValue: config.avatars.rawValue) ?? .none
        nameLabels = config.nameLabels
        timeLabels = config.timeLabels
        if let format = TimeFormat(pattern: config.timeFormat) {
            timeFormat = format
        } else {
            warnings.append("chatView.timeFormat: '\(config.timeFormat)' is not a time format (HH:mm, h:mm a, …); using \(TimeFormat.standard.pattern)")
        }
        bubbles = config.bubbles
        colors = ViewColors(incoming: config.colors["incoming"], outgoing: config.colors["outgoing"], names: config.colors["names"],
                            times: config.colors["times"], states: config.colors["states"])
        notify = config.notify
    }

    /// The settings the config at `path` asks for, each problem with them told on
    /// stderr as one line; the defaults when it cannot be read again.
    static func read(configAt path: String, io: any TerminalIO) -> ChatViewSettings {
        let (config, found) = (try? ConfigFile.read(path).chatView()) ?? (ChatViewConfig(), [])
        var warnings = found
        let settings = ChatViewSettings(config, warnings: &warnings)
        for line in warnings { io.writeErr("chatctl: config: \(line)\n") }
        return settings
    }
}
