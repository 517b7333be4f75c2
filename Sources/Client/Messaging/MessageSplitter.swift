/// Splits text longer than the server accepts into messages on line
/// boundaries; a single line longer than the limit is cut at a character
/// boundary. Every character is kept, in order; a split at a line boundary
/// drops only that one line break.
package enum MessageSplitter {
    /// The largest message body sent as one message (UTF-8 bytes).
    package static let defaultLimit = 32 * 1024

    package static func split(_ text: String, limit: Int = defaultLimit) -> [String] {
        precondition(limit >= 4, "limit must hold at least one character")
        guard text.utf8.count > limit else { return [text] }
        var parts: [String] = []
        var current: String? = nil
        var currentBytes = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line)
            let wasCut = rest.utf8.count > limit
            while rest.utf8.count > limit {
                if let c = current { parts.append(c); current = nil }
                var piece = ""
                var bytes = 0
                while let ch = rest.first, bytes + ch.utf8.count <= limit {
                    piece.append(ch); bytes += ch.utf8.count; rest.removeFirst()
                }
                parts.append(piece)
            }
            if wasCut && rest.isEmpty { continue } // the pieces already hold all of it
            let bytes = rest.utf8.count
            if let c = current, currentBytes + 1 + bytes <= limit {
                current = c + "\n" + rest
                currentBytes += 1 + bytes
            } else {
                if let c = current { parts.append(c) }
                current = String(rest)
                currentBytes = bytes
            }
        }
        if let c = current { parts.append(c) }
        return parts
    }
}
