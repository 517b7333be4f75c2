/// A time of day as the config spells it: `HH:mm` (the default), `h:mm a`,
/// `H.mm`… `HH`/`H` hours 0–23, `hh`/`h` 1–12, `mm` minutes, `ss` seconds, `a`
/// AM or PM; anything but a letter stands for itself. Parsed once, so a bad
/// pattern is refused when the config is read, not while drawing.
package struct TimeFormat: Hashable, Sendable {
    enum Field: Hashable, Sendable {
        case hour24(padded: Bool), hour12(padded: Bool), minute, second, meridiem
        case literal(String)
    }

    let fields: [Field]
    package let pattern: String

    package static let standard = TimeFormat(pattern: "HH:mm")!

    /// Nil when `pattern` has a letter that is none of the fields, or no field at all.
    package init?(pattern: String) {
        var fields: [Field] = []
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            var run = 1
            while index + run < characters.count && characters[index + run] == character { run += 1 }
            switch (character, run) {
            case ("H", 1): fields.append(.hour24(padded: false))
            case ("H", 2): fields.append(.hour24(padded: true))
            case ("h", 1): fields.append(.hour12(padded: false))
            case ("h", 2): fields.append(.hour12(padded: true))
            case ("m", 2): fields.append(.minute)
            case ("s", 2): fields.append(.second)
            case ("a", 1): fields.append(.meridiem)
            default:
                guard !character.isLetter else { return nil }
                fields.append(.literal(String(repeating: character, count: run)))
            }
            index += run
        }
        guard fields.contains(where: { if case .literal = $0 { false } else { true } }) else { return nil }
        self.fields = fields
        self.pattern = pattern
    }

    /// `seconds` since local midnight, formatted.
    func format(secondsOfDay seconds: Int) -> String {
        let hour = seconds / 3600, minute = seconds % 3600 / 60, second = seconds % 60
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return fields.map { field in
            switch field {
            case .hour24(let padded): padded ? two(hour) : String(hour)
            case .hour12(let padded): padded ? two(twelve) : String(twelve)
            case .minute: two(minute)
            case .second: two(second)
            case .meridiem: hour < 12 ? "AM" : "PM"
            case .literal(let text): text
            }
        }.joined()
    }
}

extension TimeLabels {
    /// The time of `unix` in the user's time zone, as `format` spells it.
    package func time(_ unix: Int, as format: TimeFormat) -> String {
        let local = unix + utcOffset(unix)
        return format.format(secondsOfDay: ((local % 86400) + 86400) % 86400)
    }
}
