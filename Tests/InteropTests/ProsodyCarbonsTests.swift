import Foundation
import Testing
import TestSupport
import XMPPTransport
import ChatIdentifiers

/// Carbons (XEP-0280) from a server this project did not write: Prosody's mod_carbons
/// says yes to the request XMPPConnection makes at connect, and its copy of what
/// another of our devices sent parses as our own message to the peer. (`received`
/// copies need a message to a full JID, which chatctl never sends: the unit and
/// sandbox tests cover them.)
@Suite("Carbons against Prosody", .serialized)
struct ProsodyCarbonsTests {
    typealias P = ProsodyMessagingTests

    @Test func aCopyOfWhatAnotherDeviceSentArrives() async throws {
        let server = try P.startServer()
        defer { server.stop() }
        let a = P.peer(P.alice, server), b = P.peer(P.bob, server)
        let dialogID: DialogID = "5f00000000000000000000cc"
        let result = await onOwnThread { () -> Result<(ChatSessionState.Carbons, [IncomingCarbon], [IncomingChatMessage]), XMPPError> in
            do throws(XMPPError) {
                let laptop = try P.connect(a), phone = try P.connect(a), bob = try P.connect(b)
                var phoneCarbons: [IncomingCarbon] = []
                phone.onEvent = { if case .carbon(let c) = $0 { phoneCarbons.append(c) } }
                var bobMessages: [IncomingChatMessage] = []
                bob.onEvent = { if case .message(let m) = $0 { bobMessages.append(m) } }
                _ = try phone.ping(timeout: 5)  // the answer to the carbons request came before the ping's
                let carbons = phone.carbons
                try laptop.send(OutgoingChatMessage(id: laptop.makeMessageID(), kind: .chat,
                                                    to: .user(P.bob.id, appID: P.appID, domain: server.domain),
                                                    body: "sent from the laptop", dialogID: dialogID))
                let deadline = Date().addingTimeInterval(10)
                while (phoneCarbons.isEmpty || bobMessages.isEmpty) && Date() < deadline {
                    for connection in [laptop, phone, bob] { connection.pump(timeout: 0.01) }
                }
                for connection in [laptop, phone, bob] { connection.disconnect() }
                return .success((carbons, phoneCarbons, bobMessages))
            } catch {
                return .failure(error)
            }
        }
        let (carbons, copies, bobMessages) = try result.get()
        #expect(carbons == .enabled)
        #expect(bobMessages.map(\.body) == ["sent from the laptop"])
        #expect(copies.count == 1, "copies: \(copies)")
        let sent = try #require(copies.first)
        #expect(sent.direction == .sent)
        #expect(sent.message.body == "sent from the laptop")
        #expect(sent.message.senderUserID == P.alice.id)
        #expect(sent.peer?.userID == P.bob.id)
        #expect(sent.message.dialogID == dialogID)
    }
}
