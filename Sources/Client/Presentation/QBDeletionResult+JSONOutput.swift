import QuickBloxAPI

extension QBDeletionResult {
    /// As QuickBlox answers a delete: `{"NotFound":{"ids":[…]},"SuccessfullyDeleted":{"ids":[…]}}`
    /// (`WrongPermissions` too when there are some).
    package var json: JSONValue {
        func ids(_ list: [String]) -> JSONValue { ["ids": .array(list.map { .string($0) })] }
        var object: [String: JSONValue] = ["SuccessfullyDeleted": ids(successfullyDeleted), "NotFound": ids(notFound)]
        if !wrongPermissions.isEmpty { object["WrongPermissions"] = ids(wrongPermissions) }
        return .object(object)
    }
}
