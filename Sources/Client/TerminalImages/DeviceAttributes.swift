/// A terminal's answer to the primary device attributes query (DA1, `ESC [ c`),
/// `ESC [ ? 62 ; 4 ; 22 c`: the only way a terminal says it draws sixels (4).
package struct DeviceAttributes: Sendable, Equatable {
    /// What to write to the terminal to ask.
    package static let primaryQuery = "\u{1B}[c"

    package let attributes: [Int]

    package init(attributes: [Int]) { self.attributes = attributes }

    /// The answer as read from the terminal (from `ESC [ ?` or `CSI ?` to `c`);
    /// nil for anything else.
    package init?(primaryReply reply: String) {
        var text = Substring(reply)
        if text.hasPrefix("\u{1B}[") { text = text.dropFirst(2) } else if text.hasPrefix("\u{9B}") { text = text.dropFirst() }
        guard text.hasPrefix("?"), text.hasSuffix("c") else { return nil }
        let fields = text.dropFirst().dropLast().split(separator: ";", omittingEmptySubsequences: false)
        let numbers = fields.compactMap { Int($0) }
        guard !numbers.isEmpty, numbers.count == fields.count else { return nil }
        attributes = numbers
    }

    /// Attribute 4: sixel graphics.
    package var drawsSixels: Bool { attributes.contains(4) }
}
