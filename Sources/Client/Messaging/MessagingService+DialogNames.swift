#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache
import QuickBloxAPI

/// A dialog named the way `chatctl dialogs` shows it: by title, by the other
/// person's full name, login or email address, or `title (end of id)`.
extension MessagingService {
    /// Every cached dialog by the names it answers to.
    package func dialogNameIndex() throws(Failure) -> DialogNameIndex {
        try cached { () throws(MessageCacheError) in try index(of: try cache.dialogsForNaming()) }
    }

    /// The same, for a caller that has just read every cached dialog (the chat view's list):
    /// they are not read again.
    package func dialogNameIndex(of dialogs: [CachedDialog]) throws(Failure) -> DialogNameIndex {
        try cached { () throws(MessageCacheError) in try index(of: dialogs) }
    }

    /// `dialogs` by their names, with the names of the people their titles are made of.
    private func index(of dialogs: [CachedDialog]) throws(MessageCacheError) -> DialogNameIndex {
        let people = Set(dialogs.filter(DialogNameIndex.isMadeOfOccupants).flatMap(\.occupantIDs)).subtracting([me])
        return DialogNameIndex(dialogs: dialogs, people: try cache.userNames(ids: people.sorted()), me: me)
    }

    /// The index `dialogs` needs to show `listed` (`shownTitle`): those dialogs and every cached
    /// one that could share a title with them, found through the cache's indexes (groups so
    /// named, private dialogs with someone going by it, unnamed groups) rather than by reading
    /// every cached dialog, which a page of a long list would otherwise pay for. It shows each
    /// listed dialog as the whole index does; it is not for matching (`matches`).
    package func dialogNameIndex(showing listed: [CachedDialog]) throws(Failure) -> DialogNameIndex {
        try cached { () throws(MessageCacheError) in try cache.reading { () throws(MessageCacheError) in
            let listedPeople = Set(listed.filter(DialogNameIndex.isMadeOfOccupants).flatMap(\.occupantIDs)).subtracting([me])
            let names = Dictionary(try cache.userNames(ids: listedPeople.sorted()).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            let titles = Set(listed.map { DialogNameIndex.key(DialogNameIndex.title(of: $0, me: me, names: names)) })
            // A name with a line break shows it as a space: looked for under what comes before
            // the first space of a title that has one.
            let prefixes = Set(titles.compactMap { title in title.firstIndex(of: " ").map { String(title[..<$0]) } })
            let lineBroken = try cache.dialogNames(startingWith: prefixes.sorted()).filter { titles.contains(DialogNameIndex.key($0)) && !titles.contains($0) }
            let goingBy = try cache.allUserNames().filter { person in
                [person.login, person.fullName ?? "", person.email ?? "", person.displayName].contains { !$0.isEmpty && titles.contains(DialogNameIndex.key($0)) }
            }
            // A listed group's namesakes by name are only there when its name is shared (or shown
            // otherwise, with a line break); a title made of people may be some group's name.
            let shared = try cache.sharedDialogNames(among: listed.filter { !DialogNameIndex.isMadeOfOccupants($0) }.map(\.name))
            let byName = listed.compactMap { dialog -> String? in
                let title = DialogNameIndex.key(DialogNameIndex.title(of: dialog, me: me, names: names))
                let worthAsking = DialogNameIndex.isMadeOfOccupants(dialog) || shared.contains(dialog.name) || title != dialog.name
                return worthAsking ? title : nil
            }
            var found = listed
            found += try cache.dialogsForNaming(named: Set(byName).sorted() + lineBroken)
            found += try cache.privateDialogsForNaming(with: goingBy.map(\.id).filter { $0 != me })
            found += try cache.dialogsForNaming(named: [""], groupsOnly: true)
            var seen = Set<DialogID>()
            let dialogs = found.filter { seen.insert($0.id).inserted }.sorted {
                ($0.lastMessageDateSent ?? Int.min, $0.id) > ($1.lastMessageDateSent ?? Int.min, $1.id)
            }
            return try index(of: dialogs)
        } }
    }

    /// How long (seconds) a dialog list synced from the server answers for it when a name is
    /// matched online: a script's commands in a row share one sync, and after it a dialog
    /// someone else made is seen within this long.
    package static let dialogListFreshFor = 30

    /// Whether the cached dialog list was synced within `dialogListFreshFor` seconds.
    func dialogListIsFresh() throws(Failure) -> Bool {
        guard let synced = try cached({ () throws(MessageCacheError) in try cache.dialogsSyncedAt() }) else { return false }
        return now() - synced < Self.dialogListFreshFor
    }

    /// The one dialog `name` names. Online, a name is matched against a list no older than
    /// `dialogListFreshFor` (else one request for the dialogs changed since comes first), so
    /// that a name the server shares with a dialog the cache has not seen yet is ambiguous
    /// whatever the cache's age; a fresh list is asked again only when nothing matches.
    /// `cacheOnly` matches the cache alone. A name that matches none but reads as an email
    /// address is the private dialog with that user (created when `createPrivate`, as for
    /// `@login`); several matches are listed for a person to pick.
    package func dialog(named name: String, source: DataSource, createPrivate: Bool) throws(Failure) -> CachedDialog {
        var stale = false
        if source == .server { stale = try !dialogListIsFresh() }
        if stale { try syncDialogs() }
        var index = try dialogNameIndex()
        var matches = index.matches(name)
        if matches.isEmpty && source == .server && !stale {
            try syncDialogs()
            index = try dialogNameIndex()
            matches = index.matches(name)
        }
        if matches.count == 1 {
            return try cached({ () throws(MessageCacheError) in try cache.dialog(id: matches[0].id) }) ?? matches[0]
        }
        if matches.isEmpty {
            if DialogNameIndex.looksLikeEmail(name) { return try privateDialog(login: name, source: source, create: createPrivate).dialog }
            // As for a mistyped command: the nearest name, by the same edit distance.
            if let nearest = index.closestName(to: name) {
                throw Failure(.invalidInput, "no dialog named '\(name)'", hint: "did you mean '\(nearest)'? 'chatctl dialogs' lists yours")
            }
            throw Failure(.invalidInput, "no dialog named '\(name)'",
                          hint: "run 'chatctl dialogs' to see yours, or use @login for a private dialog")
        }
        var failure = Failure(.invalidInput, "'\(name)' names \(matches.count) dialogs; give one by its id (or by the name 'chatctl dialogs' shows):")
        failure.details = describe(matches, in: index)
        throw failure
    }

    /// The dialogs a new group's `name` would also name (exactly, or but for case), one a
    /// line as an ambiguous name lists them; empty when none. Asked of the server first.
    package func namesakes(of name: String, source: DataSource) throws(Failure) -> [String] {
        if source == .server { try syncDialogs() }
        let index = try dialogNameIndex()
        let matches = index.matches(name)
        return describe(matches, in: index)
    }

    /// The user with email address `email`: from the cache, else (online) from the server;
    /// nil when nobody has it.
    package func user(email: String, source: DataSource) throws(Failure) -> CachedUser? {
        if let user = try cached({ () throws(MessageCacheError) in try cache.user(email: email) }) { return user }
        guard source == .server else { return nil }
        let found: QBUser
        do { found = try api.user(email: email) } catch {
            if error.status == 404 { return nil }
            throw Failure(describing: error, doing: "find the user with email \(email)")
        }
        return try remember(found)
    }

    private func describe(_ dialogs: [CachedDialog], in index: DialogNameIndex) -> [String] {
        let names = displayNames(Set(dialogs.flatMap(\.occupantIDs)).subtracting([me]))
        return index.describe(dialogs, names: names, date: Self.localMinute)
    }

    /// `2024-05-01 12:30` in the local time zone, as the LAST column of `chatctl dialogs`.
    static func localMinute(_ unix: Int) -> String {
        var seconds = time_t(unix)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
