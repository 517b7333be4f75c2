// The address book (docs/protocol.md §15): a user's contacts uploaded (created, renamed,
// destroyed, or replaced whole with `force`), read back, and matched with users by phone.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    static let longestAddressBookUDID = 64
    static let contactPhoneLength = 10...15
    static let contactNameLength = 1...255
    static let emptyAddressBook = RESTError.list(404, "Empty address book")

    /// `POST /address_book.json`: `contacts` (a JSON array of `{name, phone, destroy}`, or a form's
    /// `contacts[][name]`, `contacts[0][phone]`…), `force` (1: the book is replaced), `udid` (a
    /// device's book; none: the global one). A contact the service would reject is left out and
    /// named under `rejected` by its index; the rest are applied in order. 200
    /// `{"created","updated","deleted"}`, and `rejected` when something was.
    func uploadAddressBook(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let udid = try addressBookUDID(r)
        let force = try r.flag("force") ?? false
        guard let contacts = Self.contacts(r) else {
            throw .field(422, "contacts", "must be an array of contacts, each {\"name\", \"phone\"} and \"destroy\": 1 to remove one")
        }
        guard !contacts.isEmpty else { throw .field(422, "contacts", "can't be blank") }
        var changes: [AddressBookChange] = []
        var rejected: [(String, JSONNode)] = []
        for (index, fields) in contacts.enumerated() {
            switch Self.change(fields) {
            case .success(let change): changes.append(change)
            case .failure(let reason): rejected.append((String(index), .array([.string(reason.message)])))
            }
        }
        let counts = try storage { try database.applyAddressBook(userId: me, udid: udid, changes, force: force) }
        var answer: [(String, JSONNode)] = [("created", .int(counts.created)), ("updated", .int(counts.updated)),
                                            ("deleted", .int(counts.deleted))]
        if !rejected.isEmpty { answer.append(("rejected", .object(rejected))) }
        return .json(200, .object(answer))
    }

    /// `GET /address_book.json?udid=`: the book's contacts, `[{"name","phone"}]` in the order they
    /// were added; 404 `["Empty address book"]` for an empty one, as the hosted service answers
    /// (the JavaScript SDK reads that as an empty list).
    func readAddressBook(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let udid = try addressBookUDID(context.request)
        let contacts = try storage { try database.addressBook(userId: context.session.userId, udid: udid) }
        guard !contacts.isEmpty else { throw Self.emptyAddressBook }
        return .json(200, .array(contacts.map { .object([("name", .string($0.name)), ("phone", .string($0.phone))]) }))
    }

    /// `GET /address_book/registered_users.json?udid=&compact=`: the other users whose phone is a
    /// contact's in the book, `{"items":[{"user":{…}}]}`; `compact=1` keeps only `id` and `phone`.
    /// 404 `["Empty address book"]` for an empty book.
    func registeredUsers(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let udid = try addressBookUDID(r)
        let compact = try r.flag("compact") ?? false
        guard try !storage({ try database.addressBook(userId: me, udid: udid) }).isEmpty else { throw Self.emptyAddressBook }
        let users = try storage { try database.registeredUsers(inAddressBookOf: me, udid: udid) }
        return .json(200, .object([("items", .array(users.map { user in
            .object([("user", compact ? .object([("id", .int(user.id)), ("phone", .optionalString(user.profile.phone))]) : user.json)])
        }))]))
    }

    /// `udid`, at most 64 characters; "" (the global book) when not given.
    private func addressBookUDID(_ r: RESTRequest) throws(RESTError) -> String {
        let udid = String(r.parameter("udid")?.trimmingSpaces ?? "")
        guard udid.count <= Self.longestAddressBookUDID else {
            throw .field(422, "udid", "is too long (maximum is \(Self.longestAddressBookUDID) characters)")
        }
        return udid
    }

    /// Each contact's fields as text, from the JSON body's `contacts` array or from a form's
    /// `contacts[][key]` (a repeated key starts the next contact) and `contacts[N][key]`; nil
    /// when `contacts` is there but is no list of objects. A JSON number (a phone) is its digits.
    static func contacts(_ r: RESTRequest) -> [[(String, String)]]? {
        if let json = r.json?["contacts"] {
            guard case .array(let items) = json else { return nil }
            var contacts: [[(String, String)]] = []
            for item in items {
                guard case .object(let members) = item else { return nil }
                contacts.append(members.compactMap { key, value in
                    switch value {
                    case .string(let s): (key, s)
                    case .number(let n): (key, n)
                    case .bool(let b): (key, b ? "1" : "0")
                    case .null: nil
                    case .array, .object: (key, value.serialized)
                    }
                })
            }
            return contacts
        }
        var contacts: [[(String, String)]] = []
        var indexed: [Int: Int] = [:]
        for (name, value) in r.parameters where name.hasPrefix("contacts[") {
            let parts = name.dropFirst("contacts[".count).split(separator: "]", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].hasPrefix("["), parts[2].isEmpty else { return nil }
            let key = String(parts[1].dropFirst())
            if parts[0].isEmpty {
                if contacts.isEmpty || contacts[contacts.count - 1].contains(where: { $0.0 == key }) { contacts.append([]) }
                contacts[contacts.count - 1].append((key, value))
            } else if let index = Int(parts[0]) {
                let position = indexed[index] ?? contacts.count
                if indexed[index] == nil { indexed[index] = position; contacts.append([]) }
                contacts[position].append((key, value))
            } else {
                return nil
            }
        }
        if contacts.isEmpty && r.parameter("contacts") != nil { return nil }
        return contacts
    }

    /// Why one contact of an upload is left out: the hosted service's texts.
    struct ContactRejection: Error {
        var message: String
        static let invalidFields = ContactRejection(message: "Invalid fields set")
        static let phoneLength = ContactRejection(message: "Length of 'phone' field should be min: 10 and max: 15.")
        static let nameLength = ContactRejection(message: "Length of 'name' field should be min: 1 and max: 255.")
    }

    /// One contact's fields as a change of the book: `phone` always, `name` unless it is
    /// destroyed, `destroy` only as 1, and no other key.
    static func change(_ fields: [(String, String)]) -> Result<AddressBookChange, ContactRejection> {
        var values: [String: String] = [:]
        for (key, value) in fields {
            guard ["name", "phone", "destroy"].contains(key), values[key] == nil else { return .failure(.invalidFields) }
            values[key] = value
        }
        let phone = String(values["phone"]?.trimmingSpaces ?? "")
        guard contactPhoneLength.contains(phone.count) else { return .failure(.phoneLength) }
        if let destroy = values["destroy"] {
            guard destroy.trimmingSpaces == "1" else { return .failure(.invalidFields) }
            return .success(.destroy(phone: phone))
        }
        let name = values["name"] ?? ""
        guard contactNameLength.contains(name.count) else { return .failure(.nameLength) }
        return .success(.store(AddressBookContact(name: name, phone: phone)))
    }
}
