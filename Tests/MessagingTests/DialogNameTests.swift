import Diagnostics
import MessageCache
import QuickBloxAPI
import Testing
import TestSupport
@testable import Messaging
import ChatIdentifiers

/// Every name `chatctl dialogs` shows is a name a command accepts.
@Suite struct DialogNameIndexTests {
    static let me = 1
    static let bob = UserNames(id: 2, login: "bob", fullName: "bob Q", email: "bob@example.com")
    static let carol = UserNames(id: 3, login: "carol", email: "carol@example.com")
    static let withBob = dialog("000000000000000000a1b2c3", .private, "", [1, 2], last: 300)
    static let withCarol = dialog("000000000000000000a1b2c4", .private, "bob Q", [1, 3], last: 200)
    static let unnamed = dialog("000000000000000000a1b2c5", .group, "", [1, 2, 3], last: 100)

    static func dialog(_ id: DialogID, _ type: DialogType, _ name: String, _ occupants: [Int], last: Int? = nil) -> CachedDialog {
        CachedDialog(id: id, type: type, name: name, occupantIDs: occupants, lastMessageDateSent: last, updatedAt: 1, rawJSON: "")
    }

    static func index(_ dialogs: [CachedDialog]) -> DialogNameIndex {
        DialogNameIndex(dialogs: dialogs, people: [bob, carol], me: me)
    }

    /// The private dialog with bob by each name he goes by, exactly or but for case; the
    /// unnamed group by the title `dialogs` shows. Carol's dialog, named "bob Q" by its
    /// creator's app, is not bob's: a private dialog is named by its other person only.
    @Test(arguments: [
        ("bob Q", "000000000000000000a1b2c3"), ("BOB q", "000000000000000000a1b2c3"), ("bob", "000000000000000000a1b2c3"),
        ("bob@example.com", "000000000000000000a1b2c3"), ("Bob@Example.COM", "000000000000000000a1b2c3"),
        ("carol", "000000000000000000a1b2c4"), ("bob Q, carol", "000000000000000000a1b2c5"),
    ])
    func aNameShownOrTheirsFindsTheDialog(text: String, id: DialogID) {
        #expect(Self.index([Self.withBob, Self.withCarol, Self.unnamed]).matches(text).map(\.id) == [id])
    }

    /// A name that matches nothing suggests the nearest a dialog answers to, as a mistyped
    /// command does; none when nothing is near.
    @Test(arguments: [
        ("freinds", "friends"), ("FRIENDS!", "friends"), ("carl", "carol"), ("bob@exmaple.com", "bob@example.com"),
        ("zzzzzz", nil),
    ] as [(String, String?)])
    func aNameNearOneSuggestsIt(text: String, suggested: String?) {
        let friends = Self.dialog("0000000000000000000000cc", .group, "friends", [1, 2, 3])
        #expect(Self.index([Self.withBob, Self.withCarol, Self.unnamed, friends]).closestName(to: text) == suggested)
    }

    @Test func anExactMatchWinsOverOneThatDiffersInCase() {
        let upper = Self.dialog("0000000000000000000000aa", .group, "Team", [1, 2])
        let lower = Self.dialog("0000000000000000000000bb", .group, "team", [1, 3])
        let index = Self.index([upper, lower])
        #expect(index.matches("team").map(\.id) == [lower.id])
        #expect(index.matches("Team").map(\.id) == [upper.id])
        #expect(index.matches("TEAM").map(\.id) == [upper.id, lower.id])
        #expect(index.shownTitle(of: upper) == "Team", "distinct as typed: no suffix")
    }

    /// The chat view's list shows what `dialogs` shows: the titles others share with the end
    /// of the id, and no other.
    @Test func onlyTheSharedTitlesNeedTheirIdsEnd() {
        let first = Self.dialog("5f000000000000000a1234ab", .group, "team", [1, 2])
        let second = Self.dialog("5f000000000000000b1234ab", .group, "team", [1, 3])
        let index = Self.index([Self.withBob, first, second])
        #expect(index.suffixedTitles() == [first.id: "team (a1234ab)", second.id: "team (b1234ab)"])
    }

    @Test func aNameNobodyHasMatchesNothing() {
        #expect(Self.index([Self.withBob]).matches("robert").isEmpty)
        #expect(Self.index([Self.withBob]).matches("bob Q (a1b2c4)").isEmpty, "the id's end is not this dialog's")
    }

    /// Two groups named `team` and a private dialog with someone whose name is `team`: each
    /// listed with as much of its id's end as tells it apart, and that is what a command takes.
    @Test func sharedTitlesAreShownWithTheEndOfTheIdAndThatIsTyped() {
        let first = Self.dialog("5f000000000000000a1234ab", .group, "team", [1, 2], last: 50)
        let second = Self.dialog("5f000000000000000b1234ab", .group, "team", [1, 2, 3])
        let person = Self.dialog("5f0000000000000000777777", .private, "", [1, 4], last: 90)
        let index = DialogNameIndex(dialogs: [person, first, second], people: [UserNames(id: 4, login: "team")], me: 1)
        #expect(index.matches("team").map(\.id) == [person.id, first.id, second.id])
        let shown = [person, first, second].map(index.shownTitle)
        #expect(shown == ["team (777777)", "team (a1234ab)", "team (b1234ab)"])
        for (dialog, title) in zip([person, first, second], shown) {
            #expect(index.matches(title).map(\.id) == [dialog.id])
        }
        #expect(index.matches("TEAM (b1234ab)").map(\.id) == [second.id], "but for case, too")
    }

    @Test func eachCandidateLineSaysIdTypeOccupantsAndLastActivity() {
        let first = Self.dialog("5f000000000000000a1234ab", .group, "team", [1, 2], last: 50)
        let second = Self.dialog("5f000000000000000b1234ab", .group, "team", [1, 2, 3, 4, 5, 6])
        let index = Self.index([first, second])
        let lines = index.describe([first, second], names: [2: "bob Q", 3: "carol", 4: "dan\nthe man"], date: { "at \($0)" })
        #expect(lines == [
            "5f000000000000000a1234ab  group  'team (a1234ab)'  2 occupants: you, bob Q  last message at 50",
            "5f000000000000000b1234ab  group  'team (b1234ab)'  6 occupants: you, bob Q, carol, dan the man, +2 more  no messages",
        ])
    }

    @Test(arguments: [("team (a1b2c3)", true), ("team (A1B2C3)", false), ("team (a1b)", false), ("team(a1b2c3)", false), ("(a1b2c3)", false)])
    func theEndOfAnIdIsReadOnlyInItsShownForm(text: String, read: Bool) {
        #expect((DialogNameIndex.splitSuffix(text) != nil) == read)
    }

    @Test(arguments: [("bob@example.com", true), ("@bob", false), ("bob@", false), ("bob Q@x.org", false), ("bob@localhost", false)])
    func whatReadsAsAnEmailAddress(text: String, email: Bool) {
        #expect(DialogNameIndex.looksLikeEmail(text) == email)
    }
}

/// Names resolved by the service: offline from the cache, and from the server when the cache lacks them.
@Suite struct DialogNameResolutionTests {
    static let bobJSON = #"{"id":2,"login":"bob","full_name":"bob Q","email":"bob@example.com"}"#

    /// A cache holding the private dialog with bob (his email only in his JSON) and two groups named `team`.
    static func seeded(_ script: [ScriptedTransport.Reply] = []) throws -> ScriptedService {
        let f = try ScriptedService(script)
        try f.service.cache.upsertUsers([CachedUser(id: 2, login: "bob", fullName: "bob Q", rawJSON: bobJSON)])
        try f.service.cache.upsertDialogs([
            CachedDialog(id: "5f00000000000000000000b0", type: .private, name: "", occupantIDs: [1, 2], lastMessageDateSent: 30,
                         updatedAt: 1, rawJSON: #"{"_id":"5f00000000000000000000b0"}"#),
            CachedDialog(id: "5f00000000000000000000a1", type: .group, name: "team", occupantIDs: [1, 2], lastMessageDateSent: 20,
                         updatedAt: 1, rawJSON: "{}"),
            CachedDialog(id: "5f00000000000000000000a2", type: .group, name: "team", occupantIDs: [1], updatedAt: 1, rawJSON: "{}"),
        ])
        return f
    }

    @Test(arguments: ["bob Q", "bob", "bob@example.com", "BOB@EXAMPLE.COM"])
    func offlineAPrivateDialogByItsPersonsNames(text: String) throws {
        let f = try Self.seeded()
        let dialog = try f.service.resolve(try DialogReference(parsing: text), source: .cacheOnly, createPrivate: false)
        #expect(dialog.id == "5f00000000000000000000b0")
        #expect(dialog.rawJSON == #"{"_id":"5f00000000000000000000b0"}"#, "the whole record, JSON and all")
        #expect(f.transport.requests.isEmpty)
    }

    @Test func offlineAtAnEmailAddressIsThePrivateDialogWithItsOwner() throws {
        let f = try Self.seeded()
        #expect(try f.service.resolve(.user(login: "bob@example.com"), source: .cacheOnly, createPrivate: false).id == "5f00000000000000000000b0")
    }

    @Test func anAmbiguousNameListsEachCandidateOnALine() throws {
        let f = try Self.seeded()
        let error = try #require(throws: Failure.self) { try f.service.resolve(.name("team"), source: .cacheOnly, createPrivate: false) }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "'team' names 2 dialogs; give one by its id (or by the name 'chatctl dialogs' shows):")
        #expect(error.details.count == 2)
        #expect(error.details[0].hasPrefix("5f00000000000000000000a1  group  'team (0000a1)'  2 occupants: you, bob Q  last message "))
        #expect(error.details[1] == "5f00000000000000000000a2  group  'team (0000a2)'  1 occupant: you  no messages")
        #expect(try f.service.resolve(.name("team (0000a2)"), source: .cacheOnly, createPrivate: false).id == "5f00000000000000000000a2")
    }

    /// An address the cache does not know: the dialogs are synced, then the user is found by
    /// email (`by_email`) and the private dialog with them is the cached one.
    @Test func anEmailTheCacheLacksIsAskedOfTheServer() throws {
        let f = try ScriptedService([
            reply(200, #"{"total_entries":0,"skip":0,"limit":100,"items":[]}"#),
            reply(200, #"{"user":{"id":7,"login":"dora","email":"dora@example.com"}}"#),
        ])
        try f.service.cache.upsertDialogs([CachedDialog(id: "5f00000000000000000000d7", type: .private, name: "", occupantIDs: [1, 7],
                                                        updatedAt: 1, rawJSON: "{}")])
        let dialog = try f.service.resolve(.name("dora@example.com"), source: .server, createPrivate: false)
        #expect(dialog.id == "5f00000000000000000000d7")
        #expect(f.transport.requests.last?.url.contains("by_email") == true)
    }

    @Test func offlineAnUnknownNameSaysSo() throws {
        let f = try Self.seeded()
        let error = try #require(throws: Failure.self) { try f.service.resolve(.name("robert"), source: .cacheOnly, createPrivate: false) }
        #expect(error.message == "no dialog named 'robert'")
    }
}

/// Online, a name is matched against a dialog list no older than `dialogListFreshFor`: a name
/// unique in an old cache but shared on the server is ambiguous, at the cost of one request,
/// and only when the list is not fresh.
@Suite struct DialogNameFreshnessTests {
    static let cachedFriends = CachedDialog(id: "5f00000000000000000000f1", type: .group, name: "friends", occupantIDs: [1, 2],
                                            lastMessageDateSent: 20, updatedAt: 100, rawJSON: "{}")
    /// The server's answer to the dialogs changed since: a second group named `friends`.
    static let secondFriends = reply(200, #"""
        {"total_entries":1,"skip":0,"limit":100,"items":[{"_id":"5f00000000000000000000f2","type":2,"name":"friends","user_id":3,"occupants_ids":[1,3],"updated_at":"2026-11-30T17:55:19Z"}]}
        """#)
    static let users = reply(200, #"{"current_page":1,"per_page":100,"total_entries":0,"items":[]}"#)

    final class Clock: @unchecked Sendable { var now = 1_000_000 }

    static func service(_ script: [ScriptedTransport.Reply], clock: Clock) throws -> ScriptedService {
        let f = try ScriptedService(script, now: { clock.now })
        try f.service.cache.upsertDialogs([cachedFriends])
        return f
    }

    @Test func aNameUniqueInAStaleCacheButSharedOnTheServerIsAmbiguous() throws {
        let clock = Clock()
        let f = try Self.service([Self.secondFriends, Self.users], clock: clock)
        let error = try #require(throws: Failure.self) { try f.service.resolve(.name("friends"), source: .server, createPrivate: false) }
        #expect(error.message == "'friends' names 2 dialogs; give one by its id (or by the name 'chatctl dialogs' shows):")
        #expect(error.details.map { String($0.prefix(24)) }.sorted() == ["5f00000000000000000000f1", "5f00000000000000000000f2"])
        #expect(error.details.contains { $0.contains("'friends (0000f2)'") }, "each with the end of its id, as 'dialogs' shows it")
        #expect(f.transport.requests.filter { $0.url.contains("/chat/Dialog") }.count == 1, "one request for the dialog list")
    }

    @Test func aFreshListAnswersWithoutARequestAndAnOldOneIsSyncedOnce() throws {
        let clock = Clock()
        let empty = reply(200, #"{"total_entries":0,"skip":0,"limit":100,"items":[]}"#)
        let f = try Self.service([empty, Self.secondFriends, Self.users], clock: clock)
        _ = try f.service.syncDialogs()
        #expect(f.transport.requests.count == 1)
        clock.now += MessagingService.dialogListFreshFor - 1
        #expect(try f.service.resolve(.name("friends"), source: .server, createPrivate: false).id == Self.cachedFriends.id)
        #expect(f.transport.requests.count == 1, "fresh: the cache answers")
        clock.now += 1
        #expect(throws: Failure.self) { try f.service.resolve(.name("friends"), source: .server, createPrivate: false) }
        #expect(f.transport.requests.filter { $0.url.contains("/chat/Dialog") }.count == 2, "stale: synced once first")
    }

    @Test func offlineTheCacheAloneAnswersHoweverOld() throws {
        let f = try Self.service([], clock: Clock())
        #expect(try f.service.resolve(.name("friends"), source: .cacheOnly, createPrivate: false).id == Self.cachedFriends.id)
        #expect(f.transport.requests.isEmpty)
    }
}

/// `dialogs` shows a page of dialogs with an index of only those that could share their
/// titles (found through the cache's indexes, as `make bench` measures): for every listed dialog it
/// must show what the index of every cached dialog shows. Random caches where names collide
/// on purpose: groups and people named from one small pool, line breaks, unnamed groups.
@Suite struct ShownTitleIndexTests {
    static let pool = ["team", "Team", "ops", "bob", "Bob Q", "bob@example.com", "alice, bob", "te\nam", "te am", "ops\r\n", "ops "]

    @Test(arguments: 1...40)
    func aPageShowsWhatTheWholeIndexShows(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let scripted = try ScriptedService()
        let cache = scripted.service.cache
        let users = (2...9).map { id in
            let login = random.pick(["bob", "carol", "dan\(id)", "team", "ops"]) + (random.next() % 3 == 0 ? "" : "\(id)")
            let fullName = random.next() % 2 == 0 ? random.pick(Self.pool) : nil
            let email = random.next() % 3 == 0 ? #","email":"\#(random.pick(["bob@example.com", "team", "x\(id)@example.com"]))""# : ""
            return CachedUser(id: id, login: login, fullName: fullName, rawJSON: #"{"id":\#(id),"login":"\#(login)"\#(email)}"#)
        }
        try cache.upsertUsers(users)
        let dialogs = (0..<40).map { n -> CachedDialog in
            let id = DialogID(String(format: "5f00000000000000%08x", n * 7919 % 65536))
            switch random.next() % 3 {
            case 0:
                return CachedDialog(id: id, type: .private, name: random.next() % 2 == 0 ? "" : random.pick(Self.pool),
                                    occupantIDs: [1, Int(2 + random.next() % 8)], lastMessageDateSent: Int(random.next() % 100), updatedAt: 1, rawJSON: "{}")
            case 1:
                return CachedDialog(id: id, type: .group, name: "", occupantIDs: [1, Int(2 + random.next() % 8), Int(2 + random.next() % 8)],
                                    lastMessageDateSent: Int(random.next() % 100), updatedAt: 1, rawJSON: "{}")
            default:
                return CachedDialog(id: id, type: .group, name: random.pick(Self.pool), occupantIDs: [1, 2],
                                    lastMessageDateSent: Int(random.next() % 100), updatedAt: 1, rawJSON: "{}")
            }
        }
        try cache.upsertDialogs(dialogs)
        let whole = try scripted.service.dialogNameIndex()
        let page = Array(try cache.dialogs(limit: 10))
        let shown = try scripted.service.dialogNameIndex(showing: page)
        #expect(page.map(shown.shownTitle) == page.map(whole.shownTitle))
        #expect(page.contains { whole.shownTitle(of: $0).hasSuffix(")") }, "the seed makes at least one shared title on the page")
    }
}

extension ShownTitleIndexTests {
    /// A name with a line break shows as one with a space: an old group `te\nam` past the page
    /// still makes the listed `te am` show the end of its id, as the whole index does.
    @Test func aNameWithALineBreakPastThePageIsANamesake() throws {
        let scripted = try ScriptedService()
        let listed = CachedDialog(id: "5f000000000000000000aaaa", type: .group, name: "te am", occupantIDs: [1, 2],
                                  lastMessageDateSent: 50, updatedAt: 1, rawJSON: "{}")
        let older = CachedDialog(id: "5f000000000000000000bbbb", type: .group, name: "te\r\nam", occupantIDs: [1, 2],
                                 lastMessageDateSent: 10, updatedAt: 1, rawJSON: "{}")
        try scripted.service.cache.upsertDialogs([listed, older])
        let shown = try scripted.service.dialogNameIndex(showing: [listed])
        #expect(shown.shownTitle(of: listed) == "te am (00aaaa)")
    }
}

extension SplitMix {
    /// One of `items`, for the random caches above.
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
