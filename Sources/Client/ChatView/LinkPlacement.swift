/// A link the terminal edge writes as an OSC 8 hyperlink over cells already drawn.
package struct LinkPlacement: Hashable, Sendable {
    package var row: Int
    package var columns: Range<Int>
    package var url: String
}
