import SQLiteStore

/// What `chatctl dialogs` needs to show a page of dialogs with the end of the id after a
/// title others share, through the cache's indexes: the dialogs and users that
/// could share one of those titles, not every cached dialog (MessagingService+DialogNames).
/// Each dialog comes with what names it and orders the list, as `dialogsForNaming`. One
/// prepared statement runs once per name: a list of a hundred placeholders costs more to
/// parse than the hundred runs.
extension ChatCache {
    /// `body`'s reads in one read transaction: the file's locks taken once for them all,
    /// not once a query (a hundred short queries otherwise cost more in `fcntl` than in SQL).
    package func reading<T>(_ body: () throws(MessageCacheError) -> T) throws(MessageCacheError) -> T {
        try wrapping { try database.transaction(.deferred) { try body() } }
    }

    /// The dialogs named exactly one of `names` (the name index); with `groupsOnly`, no private ones.
    package func dialogsForNaming(named names: [String], groupsOnly: Bool = false) throws(MessageCacheError) -> [CachedDialog] {
        let sql = "SELECT \(Self.dialogNamingColumns) FROM dialogs d WHERE d.name = ?" + (groupsOnly ? " AND d.type != 3" : "")
        return try wrapping {
            try names.flatMap { try database.records(sql, [.text($0)], Self.dialog) }
        }
    }

    /// Those of `names` that more than one dialog has (the name index, a count each).
    package func sharedDialogNames(among names: [String]) throws(MessageCacheError) -> Set<String> {
        try wrapping {
            Set(try names.filter { name in
                try database.queryFirst("SELECT count(*) > 1 FROM (SELECT 1 FROM dialogs WHERE name = ? LIMIT 2)", [.text(name)]) { $0.int(0) } == 1
            })
        }
    }

    /// The distinct dialog names that begin with one of `prefixes` (a range of the name index
    /// each): where a name with a line break, shown as a space, may be found.
    package func dialogNames(startingWith prefixes: [String]) throws(MessageCacheError) -> [String] {
        try wrapping {
            try prefixes.flatMap { prefix in
                try database.query("SELECT DISTINCT name FROM dialogs WHERE name GLOB ?", [.text(Self.globEscaped(prefix) + "*")]) { $0.string(0) ?? "" }
            }
        }
    }

    /// The private dialogs with any of `userIDs` (the occupants' index).
    package func privateDialogsForNaming(with userIDs: [Int]) throws(MessageCacheError) -> [CachedDialog] {
        let sql = """
            SELECT \(Self.dialogNamingColumns) FROM dialog_occupants o JOIN dialogs d ON d.id = o.dialog_id
            WHERE o.user_id = ? AND d.type = 3
            """
        return try wrapping {
            try userIDs.flatMap { try database.records(sql, [.int($0)], Self.dialog) }
        }
    }

    /// Every cached user's names (the caller picks those going by a title, as it compares names).
    package func allUserNames() throws(MessageCacheError) -> [UserNames] {
        try wrapping {
            try database.records("SELECT \(Self.userNamesColumns) FROM users ORDER BY id", [], Self.userNames)
        }
    }

    /// `text` matched literally by GLOB: each of its wildcards in brackets of its own.
    static func globEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "*", "?", "[": out += "[\(character)]"
            default: out.append(character)
            }
        }
        return out
    }
}
