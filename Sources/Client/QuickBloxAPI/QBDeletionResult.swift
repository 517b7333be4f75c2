/// What a delete call removed: `{"SuccessfullyDeleted":{"ids":[…]},"NotFound":{"ids":[…]}}`,
/// and `WrongPermissions` for ids the caller may not delete that way (docs/protocol.md §5–6).
package struct QBDeletionResult: Sendable, Equatable {
    package var successfullyDeleted: [String]
    package var notFound: [String]
    package var wrongPermissions: [String]
    package init(successfullyDeleted: [String], notFound: [String], wrongPermissions: [String] = []) {
        self.successfullyDeleted = successfullyDeleted; self.notFound = notFound; self.wrongPermissions = wrongPermissions
    }

    /// From a response body. An empty body (what deleting one dialog returns) means
    /// every requested id went.
    init(json: JSONValue, requested: [String]) {
        if json.isNull {
            self.init(successfullyDeleted: requested, notFound: [])
            return
        }
        func ids(_ keys: String...) -> [String] {
            for key in keys {
                guard let value = json[key] else { continue }
                return (value["ids"] ?? value).looseStringList
            }
            return []
        }
        self.init(successfullyDeleted: ids("SuccessfullyDeleted", "successfully_deleted", "successfullyDeleted"),
                  notFound: ids("NotFound", "not_found", "notFound"),
                  wrongPermissions: ids("WrongPermissions", "wrong_permissions", "wrongPermissions"))
    }
}
