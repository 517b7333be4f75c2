/// The values an option takes, as its declaration bounds them: `range: 1...100` or `range: 1...`.
package protocol ValueRange<Bound> {
    associatedtype Bound: Comparable
    var lowest: Bound { get }
    /// nil: no upper limit.
    var highest: Bound? { get }
}

extension ClosedRange: ValueRange {
    package var lowest: Bound { lowerBound }
    package var highest: Bound? { upperBound }
}

extension PartialRangeFrom: ValueRange {
    package var lowest: Bound { lowerBound }
    package var highest: Bound? { nil }
}
