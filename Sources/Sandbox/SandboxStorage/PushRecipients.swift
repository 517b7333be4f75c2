import SandboxJSON

/// Whom an event is for (docs/protocol.md §14): users by id and by external id, and users by
/// tag (having any of `tagsAny` and all of `tagsAll`); those with any of `tagsExclude` never.
/// The users picked are the union of the id lists and the tag selection; with only
/// `tagsExclude`, everyone but the excluded. Each time the event occurs it is asked again,
/// so a user tagged or subscribed since is reached.
package struct PushRecipients: Equatable {
    package var userIds: [Int] = []
    package var externalUserIds: [Int] = []
    package var tagsAny: [String] = []
    package var tagsAll: [String] = []
    package var tagsExclude: [String] = []

    package init(userIds: [Int] = [], externalUserIds: [Int] = [], tagsAny: [String] = [], tagsAll: [String] = [],
                 tagsExclude: [String] = []) {
        self.userIds = userIds; self.externalUserIds = externalUserIds
        self.tagsAny = tagsAny; self.tagsAll = tagsAll; self.tagsExclude = tagsExclude
    }

    package var isEmpty: Bool { self == PushRecipients() }

    /// The event's `subscribers_selector` (the reference's `environment` and `user_ids`, and
    /// what else was given).
    package func selector(environment: PushEnvironment) -> JSONNode {
        var members: [(String, JSONNode)] = [("environment", .string(environment.rawValue)),
                                             ("user_ids", .array(userIds.map(JSONNode.int)))]
        if !externalUserIds.isEmpty { members.append(("external_user_ids", .array(externalUserIds.map(JSONNode.int)))) }
        var tags: [(String, JSONNode)] = []
        for (name, list) in [("any", tagsAny), ("all", tagsAll), ("exclude", tagsExclude)] where !list.isEmpty {
            tags.append((name, .array(list.map(JSONNode.string))))
        }
        if !tags.isEmpty { members.append(("tags", .object(tags))) }
        return .object(members)
    }

    /// As the `recipients` column keeps it.
    var stored: String {
        JSONNode.object([
            ("user_ids", .array(userIds.map(JSONNode.int))), ("external_user_ids", .array(externalUserIds.map(JSONNode.int))),
            ("any", .array(tagsAny.map(JSONNode.string))), ("all", .array(tagsAll.map(JSONNode.string))),
            ("exclude", .array(tagsExclude.map(JSONNode.string))),
        ]).serialized
    }

    init(stored: String) {
        guard let node = try? JSONParser.parse(Array(stored.utf8)) else { self.init(); return }
        func ints(_ key: String) -> [Int] {
            guard case .array(let items)? = node[key] else { return [] }
            return items.compactMap { if case .number(let n) = $0 { Int(n) } else { nil } }
        }
        func strings(_ key: String) -> [String] {
            guard case .array(let items)? = node[key] else { return [] }
            return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        self.init(userIds: ints("user_ids"), externalUserIds: ints("external_user_ids"), tagsAny: strings("any"),
                  tagsAll: strings("all"), tagsExclude: strings("exclude"))
    }
}
