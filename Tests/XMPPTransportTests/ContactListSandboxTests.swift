import Foundation
import Testing
@testable import XMPPTransport
import TestSupport

/// The contact and privacy list stanzas against a sandbox (docs/protocol.md §7, "Contact
/// lists", "Privacy lists"): a request approved, seen from both sides, then a block written as
/// QuickBlox's SDKs write it, read back, and bouncing the blocked user's message.
@Suite("Contact and privacy lists against a sandbox", .serialized)
struct ContactListSandboxTests {
    /// What one side heard, for the assertions after the run.
    struct Heard: Sendable {
        var roster: [RosterItem]?
        var requests: [SubscriptionPresence] = []
        var pushes: [RosterItem] = []
        var names: PrivacyAnswer?
        var blocked: [Int]?
        var bounce: ChatMessageError?
        var problem: String?
    }

    @Test func aRequestIsApprovedAndABlockBouncesTheBlockedUsersMessage() async throws {
        let sandbox = try SandboxProcess()
        let appID = try #require(sandbox.config["appId"] as? Int)
        let endpoint = try #require(ChatEndpoint(parsing: sandbox.chatEndpoint))
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let aliceID = try signUpUser(on: sandbox, login: "alice" + suffix, password: "contacts-1")
        let bobID = try signUpUser(on: sandbox, login: "bob" + suffix, password: "contacts-2")

        let (alice, bob) = await onOwnThread { () -> (Heard, Heard) in
            var a = Heard(), b = Heard()
            let aliceLink = XMPPConnection(), bobLink = XMPPConnection()
            var aliceEvents: [ChatEvent] = [], bobEvents: [ChatEvent] = []
            aliceLink.onEvent = { aliceEvents.append($0) }
            bobLink.onEvent = { bobEvents.append($0) }
            defer {
                aliceLink.disconnect()
                bobLink.disconnect()
            }
            let aliceJID = ChatJID.user(aliceID, appID: appID, domain: "localhost")
            let bobJID = ChatJID.user(bobID, appID: appID, domain: "localhost")
            /// Pumps both until `found` reads what it waits for from their events, at most 10 s.
            func waitFor<T>(_ what: String, _ found: () -> T?) throws -> T {
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline {
                    if let value = found() { return value }
                    aliceLink.pump(timeout: 0.02)
                    bobLink.pump(timeout: 0.02)
                }
                throw TestSupportError("no \(what) within 10 s; alice heard \(aliceEvents), bob \(bobEvents)")
            }
            func privacyDone(_ id: String) throws {
                try waitFor("the privacy answer \(id)") { () -> Bool? in
                    for case .privacy(let answer) in bobEvents {
                        if answer == .done(id: id) { return true }
                        if case .refused(id, let condition) = answer { a.problem = "privacy \(id): \(condition)"; return true }
                    }
                    return nil
                }
            }
            do {
                let options = ChatConnectOptions(caFile: caFile, timeout: 10)
                try aliceLink.connect(jid: aliceJID.description, password: "contacts-1", endpoint: endpoint, options: options)
                try bobLink.connect(jid: bobJID.description, password: "contacts-2", endpoint: endpoint, options: options)

                // Alice reads her (empty) list, which also gets her its pushes, adds Bob and asks.
                _ = try aliceLink.requestRoster()
                a.roster = try waitFor("alice's roster") { () -> [RosterItem]? in
                    for case .roster(.roster(let items)) in aliceEvents { return items }
                    return nil
                }
                _ = try aliceLink.setRosterItem(bobJID, name: "Bob")
                try aliceLink.sendSubscription(.subscribe, to: bobJID)
                b.requests = try waitFor("bob to hear the request") { () -> [SubscriptionPresence]? in
                    let heard = bobEvents.compactMap { event -> SubscriptionPresence? in
                        if case .subscription(let request) = event { return request }
                        return nil
                    }
                    return heard.isEmpty ? nil : heard
                }
                // Bob approves: Alice's item of Bob now lets her see his presence.
                try bobLink.sendSubscription(.subscribed, to: aliceJID)
                a.pushes = try waitFor("alice's item of bob approved") { () -> [RosterItem]? in
                    let pushes = aliceEvents.compactMap { event -> RosterItem? in
                        if case .roster(.push(let item)) = event { return item }
                        return nil
                    }
                    return pushes.contains { $0.userID == bobID && $0.subscription == .to && !$0.isAwaitingApproval } ? pushes : nil
                }

                // Bob blocks Alice, makes the list his default and active, and reads it back.
                let list = PrivacyList.blocking([aliceID], name: "blockedusers", appID: appID, domain: "localhost")
                try privacyDone(try bobLink.sendPrivacy(.store(list)))
                try privacyDone(try bobLink.sendPrivacy(.default("blockedusers")))
                try privacyDone(try bobLink.sendPrivacy(.active("blockedusers")))
                let namesID = try bobLink.sendPrivacy(.names)
                b.names = try waitFor("bob's list names") { () -> PrivacyAnswer? in
                    for case .privacy(let answer) in bobEvents { if case .names(namesID, _, _, _) = answer { return answer } }
                    return nil
                }
                let listID = try bobLink.sendPrivacy(.list("blockedusers"))
                b.blocked = try waitFor("bob's list") { () -> [Int]? in
                    for case .privacy(.list(listID, let list)) in bobEvents { return list.blockedUserIDs }
                    return nil
                }

                // Alice's next message to Bob comes back to her.
                let message = OutgoingChatMessage(id: aliceLink.makeMessageID(), kind: .chat, to: bobJID, body: "still there?",
                                                  dialogID: "000000000000000000000000", saveToHistory: false)
                _ = try aliceLink.send(message)
                a.bounce = try waitFor("alice's message to bounce") { () -> ChatMessageError? in
                    for case .messageError(let error) in aliceEvents where error.id == message.id.description { return error }
                    return nil
                }
            } catch {
                a.problem = a.problem ?? "\(error)"
            }
            return (a, b)
        }
        #expect(alice.problem == nil, "\(alice.problem ?? "")")
        #expect(alice.roster == [], "a new user's contact list is empty")
        #expect(bob.requests.first == SubscriptionPresence(.subscribe, userID: aliceID))
        #expect(alice.pushes.first == RosterItem(userID: bobID, name: "Bob", subscription: .none),
                "the item added, before the request: \(alice.pushes)")
        #expect(alice.pushes.contains(RosterItem(userID: bobID, name: "Bob", subscription: .to)), "\(alice.pushes)")
        if case .names(_, let lists, let active, let standing)? = bob.names {
            #expect(lists == ["blockedusers"] && active == "blockedusers" && standing == "blockedusers", "\(lists) \(String(describing: active)) \(String(describing: standing))")
        } else {
            Issue.record("no list names: \(String(describing: bob.names))")
        }
        #expect(bob.blocked == [aliceID])
        #expect(alice.bounce?.condition == "service-unavailable", "\(String(describing: alice.bounce))")
    }
}
