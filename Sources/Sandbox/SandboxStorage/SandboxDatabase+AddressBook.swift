// Address books (docs/protocol.md §15): a user's contacts, one book across their devices and
// one per device (`udid`), and the users whose phone is in one.
internal import SQLiteStore

/// A contact as the book keeps it.
package struct AddressBookContact: Equatable {
    package var name: String
    package var phone: String

    package init(name: String, phone: String) {
        self.name = name
        self.phone = phone
    }
}

/// One accepted entry of an upload.
package enum AddressBookChange: Equatable {
    /// Adds the contact, or renames the one with its phone.
    case store(AddressBookContact)
    /// Removes the contact with that phone, if there is one.
    case destroy(phone: String)
}

/// What an upload did.
package struct AddressBookCounts: Equatable {
    package var created = 0
    package var updated = 0
    package var deleted = 0
}

extension SandboxDatabase {
    /// The book's contacts in the order they were first added. `udid` "" is the global book.
    package func addressBook(userId: Int, udid: String) throws -> [AddressBookContact] {
        try db.query("SELECT name, phone FROM address_book WHERE user_id = ? AND udid = ? ORDER BY rowid",
                     [.int(userId), .text(udid)]) { AddressBookContact(name: $0["name"].textValue ?? "", phone: $0["phone"].textValue ?? "") }
    }

    /// Applies an upload's accepted entries in order, all or none; with `force` the book is
    /// emptied first (every contact it had counts as deleted).
    package func applyAddressBook(userId: Int, udid: String, _ changes: [AddressBookChange], force: Bool) throws -> AddressBookCounts {
        try db.transaction {
            var counts = AddressBookCounts()
            let book: [SQLiteValue] = [.int(userId), .text(udid)]
            if force { counts.deleted = try db.run("DELETE FROM address_book WHERE user_id = ? AND udid = ?", book) }
            for change in changes {
                switch change {
                case .store(let contact):
                    // An update keeps the contact's place (its rowid) in the book.
                    if try db.run("UPDATE address_book SET name = ? WHERE user_id = ? AND udid = ? AND phone = ?",
                                  [.text(contact.name)] + book + [.text(contact.phone)]) > 0 {
                        counts.updated += 1
                    } else {
                        try db.run("INSERT INTO address_book (user_id, udid, phone, name) VALUES (?, ?, ?, ?)",
                                   book + [.text(contact.phone), .text(contact.name)])
                        counts.created += 1
                    }
                case .destroy(let phone):
                    counts.deleted += try db.run("DELETE FROM address_book WHERE user_id = ? AND udid = ? AND phone = ?",
                                                 book + [.text(phone)])
                }
            }
            return counts
        }
    }

    /// The other users whose phone is a contact's in the book, by id.
    package func registeredUsers(inAddressBookOf userId: Int, udid: String) throws -> [UserRecord] {
        try db.query("""
            SELECT \(Self.userColumns) FROM users
            WHERE id != ? AND phone IN (SELECT phone FROM address_book WHERE user_id = ? AND udid = ?)
            ORDER BY id
            """, [.int(userId), .int(userId), .text(udid)], Self.user(from:))
    }
}
