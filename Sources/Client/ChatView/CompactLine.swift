/// A line of the compact layout (`ChatViewSettings.bubbles` false), as irssi shows
/// messages: `16:51 <bob> did the deploy finish?`, what wraps indented under the
/// text, an outgoing message's state after it. Spans of text, each in its style.
package struct CompactLine: Hashable, Sendable {
    package enum Kind: Hashable, Sendable { case time, name, text, attachment, state, faint }

    package struct Span: Hashable, Sendable {
        package var kind: Kind
        package var line: GlyphLine
        /// The links on it (`LinkFinder`), columns from the span's start.
        package var links: [LinkSpan] = []

        package init(_ kind: Kind, _ line: GlyphLine, links: [LinkSpan] = []) {
            self.kind = kind; self.line = line; self.links = links
        }
    }

    /// Columns after the left margin where the first span starts.
    package var indent: Int
    package var spans: [Span]

    package var width: Int { indent + spans.reduce(0) { $0 + $1.line.width } }
}
