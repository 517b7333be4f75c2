/// A file name chosen by another user, made safe to create in a directory of
/// ours: no path separators, no `..`, no control or bidirectional-override
/// characters, no leading dot (no hidden files), at most 250 bytes (room for
/// `.part`). What is left empty becomes the fallback (the blob's uid).
package enum SafeFileName {
    package static let maximumBytes = 250

    package static func make(_ name: String?, fallback: String) -> String {
        var scalars: [Unicode.Scalar] = []
        for scalar in (name ?? "").unicodeScalars {
            if scalar == "/" || scalar == "\\" {
                scalars.append("_")
            } else if isUnsafe(scalar) {
                continue
            } else {
                scalars.append(scalar)
            }
        }
        var text = String(String.UnicodeScalarView(scalars))
        // `..` anywhere becomes one dot (so `a..b` is `a.b`, and no `..` is left).
        while text.contains("..") { text = text.replacing("..", with: ".") }
        text = String(text.drop { $0 == "." || $0 == " " })
        while text.last == " " { text.removeLast() }
        text = shortened(text)
        if text.isEmpty { return fallback == "" ? "attachment" : make(fallback, fallback: "attachment") }
        return text
    }

    /// The name for the `number`th file of the same name: `photo.jpg`, then
    /// `photo-2.jpg`, `photo-3.jpg` (`notes-2` without an extension).
    package static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot])-\(number)\(name[dot...])"
        }
        return "\(name)-\(number)"
    }

    /// C0 and C1 controls, DEL, and the invisible marks that reorder or hide text.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C, 0xFEFF: return true
        default: return false
        }
    }

    /// At most `maximumBytes` of UTF-8, cut at a character, keeping a short extension.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var stem = Substring(text)
        var suffix = ""
        if let dot = text.lastIndex(of: "."), text.utf8.distance(from: dot.samePosition(in: text.utf8)!, to: text.utf8.endIndex) <= 16 {
            stem = text[..<dot]
            suffix = String(text[dot...])
        }
        var result = ""
        for character in stem {
            if result.utf8.count + character.utf8.count + suffix.utf8.count > maximumBytes { break }
            result.append(character)
        }
        return result + suffix
    }
}
