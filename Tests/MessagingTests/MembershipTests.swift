import Diagnostics
import Testing
import MessageCache
import TestSupport
@testable import Messaging

/// Who is in a group, checked by the messaging layer before the server is asked: those
/// already in are not added again, only members are removed, removing yourself is leaving.
@Suite struct MembershipTests {
    /// The group `ops` of users 1 (me) and 2 (bob) cached, with bob and cat; the server's
    /// answer when the group is read again.
    static func fixture(_ more: [ScriptedTransport.Reply] = []) throws -> ScriptedService {
        let f = try ScriptedService([reply(200, #"{"items":[\#(ScriptedService.dialogJSON())]}"#)] + more)
        _ = try f.seed()
        try f.service.cache.upsertUsers([CachedUser(id: 1, login: "me", rawJSON: "{}"), CachedUser(id: 2, login: "bob", rawJSON: "{}"),
                                         CachedUser(id: 3, login: "cat", rawJSON: "{}")])
        return f
    }

    static let ops = DialogReference.id(ScriptedService.dialogID)

    @Test func whoIsAlreadyInIsSkippedAndTheRestAdded() throws {
        let f = try Self.fixture([reply(200, ScriptedService.dialogJSON(occupants: [1, 2, 3]))])
        let change = try f.service.planAddition(of: ["bob", "cat"], to: Self.ops)
        #expect(change.users.map(\.login) == ["cat"] && change.alreadyIn.map(\.login) == ["bob"])
        let (group, added) = try f.service.add(change)
        #expect(group.occupantIDs == [1, 2, 3] && added == [3])
        #expect(try f.transport.bodyText(1).contains(#""push_all":{"occupants_ids":[3]}"#))
    }

    @Test func someoneNotInTheGroupIsNotRemoved() throws {
        let f = try Self.fixture()
        let error = try #require(throws: Failure.self) { try f.service.planRemoval(of: ["cat"], from: Self.ops) }
        #expect(error.kind == .invalidInput && error.message == "@cat is not in 'ops'")
        #expect(f.transport.requests.count == 1, "only the group read again")
    }

    @Test func removingYourselfIsLeavingAndNothingIsSent() throws {
        let f = try Self.fixture()
        let change = try f.service.planRemoval(of: ["me", "bob"], from: Self.ops)
        #expect(change.includesYou)
        let error = try #require(throws: Failure.self) { try f.service.remove(change) }
        #expect(error.kind == .invalidInput && error.message == "to remove yourself, use 'chatctl dialogs leave'")
        #expect(f.transport.requests.count == 1)
    }

    @Test func aPrivateDialogsOccupantsNeverChange() throws {
        let f = try ScriptedService([reply(200, #"{"items":[{"_id":"p1","type":3,"name":"","user_id":1,"occupants_ids":[1,2],"updated_at":"2026-11-30T17:55:19Z"}]}"#)])
        try f.service.cache.upsertDialogs([CachedDialog(id: "p1", type: .private, name: "", occupantIDs: [1, 2], updatedAt: 1, rawJSON: "{}")])
        let error = try #require(throws: Failure.self) { try f.service.planAddition(of: ["cat"], to: .id("p1")) }
        #expect(error.kind == .invalidInput && error.message == "a private dialog's occupants cannot change")
    }
}
