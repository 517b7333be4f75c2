/// `field[calc]=op`: an aggregate of one field over each group.
package struct RecordCalculation {
    package enum Operation: String, CaseIterable { case avg, min, max, sum }
    package var field: String
    package var operation: Operation

    package init(field: String, operation: Operation) {
        self.field = field
        self.operation = operation
    }

    /// The key the result has in each group's item: `score_avg`.
    package var key: String { "\(field)_\(operation.rawValue)" }
}
