/// Left-aligned columns separated by two spaces; the last column is cut to
/// the terminal width (when there is one).
package enum Table {
    package static func render(_ rows: [[String]], width: Int?) -> String {
        guard let columns = rows.first?.count, columns > 0 else { return "" }
        // Each cell's length in Characters, counted once (counting is the cost here).
        let counts = rows.map { $0.map(Self.length) }
        var widths = [Int](repeating: 0, count: columns)
        for row in counts { for i in 0..<min(row.count, columns - 1) { widths[i] = min(max(widths[i], row[i]), 32) } }
        // Lines are put together as UTF-8 bytes: appending to a String checks each piece
        // (`dialogs --offline` spent a sixth of its instructions here).
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 96)
        var line: [UInt8] = []
        line.reserveCapacity(160)
        for (cells, row) in zip(counts, rows) {
            line.removeAll(keepingCapacity: true)
            for (i, cell) in row.enumerated() {
                if i < columns - 1 {
                    var count = cells[i]
                    if count > widths[i] {
                        line += cell.prefix(widths[i] - 1).utf8
                        line += "…".utf8
                        count = widths[i]
                    } else {
                        line += cell.utf8
                    }
                    line += repeatElement(UInt8(ascii: " "), count: widths[i] - count + 2)
                } else {
                    line += cell.utf8
                }
            }
            if let width {
                // Cut to the terminal in Characters, as a person sees them.
                let text = String(decoding: line, as: UTF8.self)
                if text.count > width { line = Array((String(text.prefix(max(width - 1, 1))) + "…").utf8) }
            }
            while line.last == UInt8(ascii: " ") { line.removeLast() }
            out += line
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Characters in `text`: its bytes when all are printable ASCII (most cells; no
    /// "\r\n" pair there), without grapheme breaking.
    package static func length(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil } ?? text.count
    }
}
