import QuickBloxAPI

/// The config file's `chatView` section: how `chatctl chat` lays out and colours a
/// conversation (docs/chat-view.md, "Customising the chat view"). Read leniently, unlike the
/// rest of the file: a key it does not know or a value it cannot use is one warning
/// line naming the key, and that key keeps its default, so the view always opens.
package struct ChatViewConfig: Sendable, Equatable {
    package enum Avatars: String, Sendable, CaseIterable { case image, initials, none }

    package var avatars: Avatars = .none
    package var nameLabels = true
    package var timeLabels = true
    /// As written; the chat view checks the pattern (`TimeFormat`), where it is understood.
    package var timeFormat = ChatViewConfig.defaultTimeFormat
    package var bubbles = true
    /// Palette numbers (0–255) by role: `incoming`, `outgoing`, `names`, `times`, `states`.
    package var colors: [String: UInt8] = [:]
    package var notify = true

    package static let defaultTimeFormat = "HH:mm"
    package static let keys = ["avatars", "nameLabels", "timeLabels", "timeFormat", "bubbles", "colors", "notify"]
    package static let colorRoles = ["incoming", "outgoing", "names", "times", "states"]
    /// The 16 colours terminals theme, by name.
    static let colorNames: [String: UInt8] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "gray": 8, "grey": 8, "bright-black": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11,
        "bright-blue": 12, "bright-magenta": 13, "bright-cyan": 14, "bright-white": 15,
    ]

    package init() {}

    /// The section `value` as far as it can be used, and a line for each problem
    /// (`chatView.bubbles: must be true or false; using true`), in key order.
    package static func parse(_ value: JSONValue?) -> (ChatViewConfig, warnings: [String]) {
        var config = ChatViewConfig()
        var warnings: [String] = []
        guard let value, !value.isNull else { return (config, []) }
        guard let object = value.objectValue else { return (config, ["chatView: must be an object; using the defaults"]) }
        func flag(_ key: String, _ current: Bool) -> Bool {
            if let bool = object[key]?.boolValue { return bool }
            warnings.append("chatView.\(key): must be true or false; using \(current)")
            return current
        }
        for key in object.keys.sorted() {
            switch key {
            case "avatars":
                if let text = object[key]?.stringValue, let avatars = Avatars(rawValue: text) {
                    config.avatars = avatars
                } else {
                    warnings.append("chatView.avatars: \(shown(object[key])) is not one of image, initials, none; using none")
                }
            case "nameLabels": config.nameLabels = flag(key, config.nameLabels)
            case "timeLabels": config.timeLabels = flag(key, config.timeLabels)
            case "bubbles": config.bubbles = flag(key, config.bubbles)
            case "notify": config.notify = flag(key, config.notify)
            case "timeFormat":
                if let text = object[key]?.stringValue, !text.isEmpty {
                    config.timeFormat = text
                } else {
                    warnings.append("chatView.timeFormat: must be a time format (HH:mm, h:mm a, …); using \(defaultTimeFormat)")
                }
            case "colors":
                guard let colors = object[key]?.objectValue else {
                    warnings.append("chatView.colors: must be an object (incoming, outgoing, names, times, states); using the theme's")
                    continue
                }
                for role in colors.keys.sorted() {
                    guard colorRoles.contains(role) else {
                        warnings.append("chatView.colors.\(role): unknown key (known: \(colorRoles.joined(separator: ", "))); ignored")
                        continue
                    }
                    if let index = color(colors[role]) {
                        config.colors[role] = index
                    } else {
                        warnings.append("chatView.colors.\(role): \(shown(colors[role])) is not a colour (0–255, or a name: red, bright-blue, …); using the theme's")
                    }
                }
            default:
                warnings.append("chatView.\(key): unknown key (known: \(keys.joined(separator: ", "))); ignored")
            }
        }
        return (config, warnings)
    }

    /// A palette number, a numeric string or a colour's name.
    static func color(_ value: JSONValue?) -> UInt8? {
        if let number = value?.intValue { return (0...255).contains(number) ? UInt8(number) : nil }
        guard let text = value?.stringValue?.lowercased() else { return nil }
        if let number = Int(text) { return (0...255).contains(number) ? UInt8(number) : nil }
        return colorNames[String(text.map { $0 == "_" ? "-" : $0 })]
    }

    /// A value as the warning quotes it: `'pics'`, `42`, `true`.
    static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        if let text = value.stringValue { return "'\(text.prefix(40))'" }
        if let number = value.intValue { return String(number) }
        if let bool = value.boolValue { return String(bool) }
        if value.isNull { return "null" }
        return value.arrayValue != nil ? "a list" : value.objectValue != nil ? "an object" : "that value"
    }
}

extension ConfigFile {
    /// The `chatView` section, and a line for each problem in it.
    package func chatView() -> (ChatViewConfig, warnings: [String]) {
        ChatViewConfig.parse(root.objectValue?["chatView"])
    }
}
