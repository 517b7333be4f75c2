import ChatIdentifiers
import CommandLineKit
import MessageCache

/// The names a dialog answers to on the command line: every title
/// `chatctl dialogs` shows, and for a private dialog the other person's full name,
/// login and email address. A name that matches exactly wins over one that differs
/// only in case; a title shared by several dialogs is shown, and typed, with the end
/// of the dialog's id after it: `team (a1b2c3)`.
package struct DialogNameIndex: Sendable {
    /// The cached dialogs, in the cache's order (latest activity first).
    package let dialogs: [CachedDialog]
    private let me: Int
    private var titles: [DialogID: String] = [:]
    private var exact: [String: [Int]] = [:]
    private var folded: [String: [Int]] = [:]

    /// `people`: the cached users among the occupants of private and unnamed dialogs;
    /// others are "user ID", as a title shows them.
    package init(dialogs: [CachedDialog], people: [UserNames], me: Int) {
        self.dialogs = dialogs
        self.me = me
        let byID = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let names = byID.mapValues(\.displayName)
        // Every cached dialog passes here for each `dialogs` (a thousand of them in the bench):
        // room made once, and a group's one key without the set a private dialog's need.
        titles.reserveCapacity(dialogs.count)
        exact.reserveCapacity(dialogs.count)
        folded.reserveCapacity(dialogs.count)
        for (position, dialog) in dialogs.enumerated() {
            let title = Self.title(of: dialog, me: me, names: names)
            titles[dialog.id] = title
            var keys = [Self.key(title)]
            // Only the private dialog's other person: its `name`, which the creator's app may
            // have set to someone's name (even the reader's own), is not shown, so not typed.
            if dialog.type == .private {
                for id in dialog.occupantIDs where id != me {
                    guard let person = byID[id] else { continue }
                    for name in [person.login, person.fullName ?? "", person.email ?? ""] where !name.isEmpty {
                        let key = Self.key(name)
                        if !keys.contains(key) { keys.append(key) }
                    }
                }
            }
            for key in keys {
                exact[key, default: []].append(position)
                let lower = key.lowercased()
                if folded[lower]?.last != position { folded[lower, default: []].append(position) }
            }
        }
    }

    /// The dialog's title, unsanitized: a group's name; for a private dialog, or a group
    /// without a name, the other occupants' names (`names`: full name, else login).
    package static func title(of dialog: CachedDialog, me: Int, names: [Int: String]) -> String {
        if isMadeOfOccupants(dialog) {
            let others = dialog.occupantIDs.filter { $0 != me }.map { names[$0] ?? "user \($0)" }
            if !others.isEmpty { return others.joined(separator: ", ") }
        }
        return dialog.name
    }

    package static func isMadeOfOccupants(_ dialog: CachedDialog) -> Bool { dialog.type == .private || dialog.name.isEmpty }

    /// The dialogs `text` names, latest activity first: those with a name equal to it, else
    /// `title (end of id)`, else the same two ignoring case. Empty when none.
    package func matches(_ text: String) -> [CachedDialog] {
        let key = Self.key(text)
        let suffixed = Self.splitSuffix(key)
        let tiers: [() -> [Int]] = [
            { exact[key] ?? [] },
            { suffixed.map { base, end in (exact[base] ?? []).filter { dialogs[$0].id.rawValue.hasSuffix(end) } } ?? [] },
            { folded[key.lowercased()] ?? [] },
            { suffixed.map { base, end in (folded[base.lowercased()] ?? []).filter { dialogs[$0].id.rawValue.hasSuffix(end) } } ?? [] },
        ]
        for tier in tiers {
            let found = tier()
            if !found.isEmpty { return found.map { dialogs[$0] } }
        }
        return []
    }

    /// The name nearest to `text` that some dialog answers to (a title, or the other person's
    /// full name, login or email), by the edit distance "did you mean" uses for commands,
    /// ignoring case; nil when none is near. `freinds` → `friends`.
    package func closestName(to text: String) -> String? {
        let names = exact.keys.sorted()
        let folded = names.map { $0.lowercased() }
        guard let best = EditDistance.bestMatch(for: Self.key(text).lowercased(), among: folded),
              let position = folded.firstIndex(of: best) else { return nil }
        return names[position]
    }

    /// The dialog's title as `dialogs` lists it: followed by the end of its id, as few
    /// digits as tell it apart (six at least), when other dialogs have the same title.
    package func shownTitle(of dialog: CachedDialog) -> String {
        let title = titles[dialog.id] ?? dialog.name
        let namesakes = (exact[Self.key(title)] ?? []).map { dialogs[$0].id.rawValue }.filter { $0 != dialog.id.rawValue }
        guard !namesakes.isEmpty else { return title }
        var length = 6
        while length < dialog.id.rawValue.count && namesakes.contains(where: { $0.hasSuffix(dialog.id.rawValue.suffix(length)) }) { length += 1 }
        return "\(title) (\(dialog.id.rawValue.suffix(length)))"
    }

    /// The titles that need the end of their id, by dialog id (`shownTitle` of each dialog
    /// whose title others share): what the chat view's list shows instead of the bare title.
    package func suffixedTitles() -> [DialogID: String] {
        var found: [DialogID: String] = [:]
        for dialog in dialogs {
            let shown = shownTitle(of: dialog)
            if shown != titles[dialog.id] { found[dialog.id] = shown }
        }
        return found
    }

    /// One line per dialog a name matched, so a person can pick one: id, type, occupants
    /// (a few by name) and last activity. `date` formats a unix time.
    package func describe(_ candidates: [CachedDialog], names: [Int: String], date: (Int) -> String) -> [String] {
        candidates.map { dialog in
            let others = dialog.occupantIDs.filter { $0 != me }
            let shown = others.prefix(3).map { Self.key(names[$0] ?? "user \($0)") }
            let people = (others.count < dialog.occupantIDs.count ? ["you"] : []) + shown + (others.count > 3 ? ["+\(others.count - 3) more"] : [])
            let count = dialog.occupantIDs.count == 1 ? "1 occupant" : "\(dialog.occupantIDs.count) occupants"
            let activity = dialog.lastMessageDateSent.map { "last message \(date($0))" } ?? "no messages"
            let title = Self.key(shownTitle(of: dialog))
            return "\(dialog.id)  \(MessagingService.typeName(dialog.type))  '\(title)'  \(count): \(people.joined(separator: ", "))  \(activity)"
        }
    }

    /// A name as compared: line breaks read as spaces, as `dialogs` shows them.
    static func key(_ text: String) -> String {
        // Most names are ASCII without controls: no character by character walk for those.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x80 }) else { return text }
        return text.contains(where: \.isNewline) ? String(text.map { $0.isNewline ? " " : $0 }) : text
    }

    /// `team (a1b2c3)` as ("team", "a1b2c3"): the end of an id, 4 to 24 lowercase hex digits.
    static func splitSuffix(_ text: String) -> (base: String, end: String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "("), open > text.startIndex else { return nil }
        let space = text.index(before: open)
        let end = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard text[space] == " ", (4...24).contains(end.count), end.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return (String(text[..<space]), String(end))
    }

    /// Whether a name that matched no dialog may be an email address (`bob@example.com`):
    /// then it names the private dialog with that user, as `@bob@example.com` does.
    package static func looksLikeEmail(_ text: String) -> Bool {
        guard let at = text.firstIndex(of: "@"), at != text.startIndex, text.index(after: at) != text.endIndex else { return false }
        return !text.contains(where: \.isWhitespace) && text[text.index(after: at)...].contains(".")
    }
}
