/// A listing (`dialogs`, `users`, `outbox`, …) for both of its readers: a person
/// on a terminal gets `Table`'s aligned columns under a header; a program in a
/// pipe gets one line a row, fields separated by tabs, no header, as gh does.
/// Each command's pipe fields are documented in docs/cli-output.md.
package struct Listing {
    /// How rows reach stdout (`CommandContext.listingLayout` chooses).
    package enum Layout: Equatable, Sendable {
        /// Columns under a header, the last cut to `width` when there is one.
        case aligned(width: Int?)
        /// Tab-separated fields, no header; a field never holds a tab or a line break.
        case tabSeparated

        /// A time: local to the minute for a person, ISO 8601 UTC in a pipe; "" for none.
        package func time(_ unix: Int?) -> String {
            guard let unix else { return "" }
            switch self {
            case .aligned: return TimeText.format(Double(unix), "%Y-%m-%d %H:%M", in: .local)
            case .tabSeparated: return TimeText.iso8601(Double(unix))
            }
        }
    }

    /// A column: its header on a terminal, and which layouts show it (an id is
    /// for programs; a person reads the name beside it).
    package struct Column: ExpressibleByStringLiteral, Sendable {
        package enum Shown: Sendable { case everywhere, inPipes, onTerminals }
        package var header: String
        package var shown: Shown

        package init(_ header: String, shown: Shown = .everywhere) { self.header = header; self.shown = shown }
        package init(stringLiteral header: String) { self.init(header) }
        /// Only in a pipe: ids and exact values that a terminal shows another way.
        package static func inPipes(_ header: String) -> Column { Column(header, shown: .inPipes) }
        package static func onTerminals(_ header: String) -> Column { Column(header, shown: .onTerminals) }
    }

    package let columns: [Column]
    package private(set) var rows: [[String]] = []

    package init(_ columns: [Column]) { self.columns = columns }

    /// One row: a cell for every column, in their order.
    package mutating func append(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row has \(cells.count) cells for \(columns.count) columns")
        rows.append(cells)
    }

    package var isEmpty: Bool { rows.isEmpty }

    package func render(_ layout: Layout) -> String {
        switch layout {
        case .aligned(let width):
            let kept = columns.indices.filter { columns[$0].shown != .inPipes }
            let header = kept.map { columns[$0].header }
            return Table.render([header] + rows.map { row in kept.map { Self.field(row[$0]) } }, width: width)
        case .tabSeparated:
            let kept = columns.indices.filter { columns[$0].shown != .onTerminals }
            return Self.tabSeparated(rows.map { row in kept.map { row[$0] } })
        }
    }

    /// Rows as lines of tab-separated fields; tabs and line breaks inside a field
    /// become spaces so that every line has the same number of fields.
    package static func tabSeparated(_ rows: [[String]]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 96)
        for row in rows {
            for (i, cell) in row.enumerated() {
                if i > 0 { out.append(UInt8(ascii: "\t")) }
                out += field(cell).utf8
            }
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` on one line with no tab: tab, CR and LF each become a space.
    package static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
