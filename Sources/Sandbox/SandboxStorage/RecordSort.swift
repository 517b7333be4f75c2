/// Sort order of a listing: a whitelisted column and a direction.
package struct RecordSort {
    var column: String
    var descending: Bool

    package init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}
