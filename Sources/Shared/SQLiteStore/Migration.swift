/// One named step of a schema. Applied at most once per database, in its own
/// transaction, and recorded by name in the `schema_migrations` table.
package struct Migration: Sendable {
    package let name: String
    let apply: @Sendable (Database) throws -> Void

    /// A step that runs arbitrary code on the connection (already in a transaction).
    package init(_ name: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.name = name
        self.apply = apply
    }

    /// A step made of SQL statements.
    package init(_ name: String, sql: String) {
        self.init(name) { try $0.execute(sql) }
    }
}
