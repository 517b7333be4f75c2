/// The order of a list: a field and a direction.
package struct RecordOrder {
    package var field: String
    package var descending: Bool

    package init(field: String, descending: Bool) {
        self.field = field
        self.descending = descending
    }

    /// Creation order, as the service lists without a sort.
    package static let created = RecordOrder(field: "_id", descending: false)

    /// The SQL of `ORDER BY`, ties in creation order; 422 for a name no field may have.
    func sql(in cls: CustomClass) throws(FieldProblem) -> String {
        let direction = descending ? "DESC" : "ASC"
        let columns = ["_id": "r.seq", "created_at": "r.created_at", "updated_at": "r.updated_at", "user_id": "r.user_id",
                       "_parent_id": "r.parent_id"]
        if field == "_id" { return "r.seq \(direction)" }
        if let column = columns[field] { return "\(column) \(direction), r.seq \(direction)" }
        guard CustomField.isValidName(field) else { throw FieldProblem(descending ? "sort_desc" : "sort_asc", "is not a field: \(field)") }
        return "json_extract(r.fields, '$.\(field)') \(direction), r.seq \(direction)"
    }
}
