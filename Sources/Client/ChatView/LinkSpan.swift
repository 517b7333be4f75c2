/// Columns of a line that show a link.
package struct LinkSpan: Hashable, Sendable {
    package var columns: Range<Int>
    package var url: String
}
