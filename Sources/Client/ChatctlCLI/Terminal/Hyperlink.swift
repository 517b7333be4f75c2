/// An OSC 8 hyperlink around text (the URL another user wrote: only printable ASCII goes
/// in the sequence, the rest percent-encoded, so nothing in it can end the sequence early).
enum Hyperlink {
    static func osc8(_ text: String, url: String) -> String {
        "\u{1B}]8;;\(encoded(url))\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\"
    }

    static func encoded(_ url: String) -> String {
        var out = ""
        for byte in url.utf8 {
            if byte > 0x20 && byte < 0x7F && byte != 0x3B {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
