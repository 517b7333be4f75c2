// A dialog's custom data (`data[class_name]`, `data[field]`; docs/protocol.md §5, §13): a record
// of that class, which the dialog names (`dialogs.data_id`) and which goes with the dialog.
internal import SQLiteStore
import SandboxJSON

/// Dialogs whose custom data is of a class and matches criteria (`data[class_name]=X&data[f][op]=v`).
package struct DialogDataFilter {
    package var className: String?
    package var criteria: RecordCriteria

    package init(className: String?, criteria: RecordCriteria) {
        self.className = className
        self.criteria = criteria
    }

    /// `(where, arguments)` over a row of `dialogs` called `d`.
    var sql: (String, [SQLiteValue]) {
        var (sql, arguments) = criteria.sql
        if let className {
            sql = "d.data_id IN (SELECT dc.id FROM custom_objects dc WHERE dc.class_name = ?) AND \(sql)"
            arguments.insert(.text(className), at: 0)
        } else {
            sql = "d.data_id IS NOT NULL AND \(sql)"
        }
        return (sql, arguments)
    }
}

extension CustomObjectStore {
    /// The dialog's custom data, with its class, if it has some.
    package func dialogData(_ dialogId: String) throws -> (cls: CustomClass, record: CustomRecord)? {
        guard let record = try db.queryFirst("""
            SELECT r.* FROM custom_objects r JOIN dialogs d ON d.data_id = r.id WHERE d.id = ?
            """, [.text(dialogId)], Self.record(from:)), let cls = try customClass(record.className) else { return nil }
        return (cls, record)
    }

    /// Runs `change` (deleting or leaving the dialog); when the dialog is gone after it, its
    /// custom data goes too, with the record's children, all or nothing. The uids of the files
    /// that went (the caller removes the files).
    package func removingDialog(_ dialogId: String, _ change: () throws -> Void, exists: () throws -> Bool) throws -> [String] {
        try db.transaction {
            let data = try dialogData(dialogId)?.record.id
            try change()
            guard let data, try !exists() else { return [] }
            return try deleteWithChildren([data])
        }
    }

    /// Sets the dialog's custom data from `input`: its record changed when it is of `className`
    /// (or `className` is nil), else a new record of `className` owned by the caller, the old one
    /// deleted. Whether the caller may change the dialog is the dialog's rule, checked before.
    /// The uids of files that went with a replaced record (the caller removes the files).
    package func setDialogData(_ dialogId: String, className: String?, _ input: RecordInput, caller: RecordCaller) throws -> [String] {
        try db.transaction {
            let current = try dialogData(dialogId)
            if let current, className == nil || className == current.cls.name {
                var cls = current.cls
                var record = current.record
                try cls.apply(input.changes, to: &record.fields, fromForm: input.fromForm)
                record.updatedAt = Int(now())
                try write(record, new: false)
                try save(cls)
                return []
            }
            guard let className else { throw FieldProblem("data[class_name]", "can't be blank") }
            let (_, made) = try create(className, [RecordInput(changes: input.changes, fromForm: input.fromForm)], caller: caller)
            let gone = try current.map { try deleteWithChildren([$0.record.id]) } ?? []
            try db.run("UPDATE dialogs SET data_id = ? WHERE id = ?", [.text(made[0].id), .text(dialogId)])
            return gone
        }
    }
}
