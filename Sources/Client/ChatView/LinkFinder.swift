/// The links in a message's text, as its labels detect them in QuickBlox's chat screen:
/// `http://` and `https://` up to the next space, without the punctuation that ends a
/// sentence or an unbalanced closing bracket. The text stays as sent; the view underlines
/// each link and the terminal edge makes it an OSC 8 hyperlink.
package enum LinkFinder {
    /// The links of `text`, in order.
    package static func links(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = firstScheme(in: rest) {
            var end = start
            while end < rest.endIndex, !rest[end].isWhitespace { end = rest.index(after: end) }
            var link = rest[start..<end]
            link = trimmed(link)
            if link.count > schemeLength(link) { found.append(String(link)) }
            rest = rest[end...]
        }
        return found
    }

    private static func firstScheme(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            let tail = text[index...]
            if tail.hasPrefix("https://") || tail.hasPrefix("http://") {
                // Inside a word ("xhttp://") it is no link.
                if index == text.startIndex || !text[text.index(before: index)].isLetter { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func schemeLength(_ link: Substring) -> Int { link.hasPrefix("https://") ? 8 : 7 }

    /// Without trailing `.,;:!?'"` and closing brackets that open nowhere in the link.
    private static func trimmed(_ link: Substring) -> Substring {
        var link = link
        while let last = link.last {
            if ".,;:!?'\"".contains(last) {
                link = link.dropLast()
            } else if let open = ["(": ")", "[": "]", "{": "}", "<": ">"].first(where: { $0.value == String(last) })?.key,
                      link.filter({ String($0) == open }).count < link.filter({ $0 == last }).count {
                link = link.dropLast()
            } else {
                break
            }
        }
        return link
    }

    /// Where `links` fall on wrapped `lines` (a wrap drops only the spaces where it breaks,
    /// and may cut a long link between lines): for each line, the columns of each link on it.
    package static func spans(of links: [String], on lines: [GlyphLine]) -> [[LinkSpan]] {
        // Every glyph of every line, in order, with where it is.
        var glyphs: [(text: String, line: Int, column: Int, width: Int)] = []
        for (number, line) in lines.enumerated() {
            var column = 0
            for glyph in line.glyphs {
                glyphs.append((glyph.text, number, column, glyph.width))
                column += glyph.width
            }
        }
        var result: [[LinkSpan]] = Array(repeating: [], count: lines.count)
        var from = 0
        for link in links {
            // The first glyph from `from` on where the link's text begins and runs whole.
            var found: Range<Int>?
            var start = from
            while start < glyphs.count && found == nil {
                var rest = Substring(link)
                var end = start
                while end < glyphs.count, !rest.isEmpty, rest.hasPrefix(glyphs[end].text) {
                    rest = rest.dropFirst(glyphs[end].text.count)
                    end += 1
                }
                if rest.isEmpty { found = start..<end } else { start += 1 }
            }
            guard let range = found else { continue }
            from = range.upperBound
            var index = range.lowerBound
            while index < range.upperBound {
                let line = glyphs[index].line
                let first = glyphs[index].column
                var last = first
                while index < range.upperBound && glyphs[index].line == line {
                    last = glyphs[index].column + glyphs[index].width
                    index += 1
                }
                result[line].append(LinkSpan(columns: first..<last, url: link))
            }
        }
        return result
    }
}
