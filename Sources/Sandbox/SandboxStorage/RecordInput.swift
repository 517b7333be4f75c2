import SandboxJSON

/// A request's wish for one record: field changes, and the parent and permissions if given.
package struct RecordInput {
    package var changes: [FieldChange] = []
    /// `.some(nil)`: no parent any more.
    package var parentId: String?? = nil
    /// The request's `permissions` (`RecordPermissions.changed(by:)`).
    package var permissions: JSONNode?
    /// The values came as form text, which a new field's type is read from (`CustomField.inferred`).
    package var fromForm: Bool

    package init(changes: [FieldChange] = [], parentId: String?? = nil, permissions: JSONNode? = nil, fromForm: Bool) {
        self.changes = changes
        self.parentId = parentId
        self.permissions = permissions
        self.fromForm = fromForm
    }
}
