// The real chatctl-sandbox with a database file, restarted: a contact list's items, a
// subscription request not yet answered and a privacy list that is the default all outlive the
// process (docs/protocol.md §7, "Contact lists" and "Privacy lists").
import Foundation
import Testing
import TestSupport

@Suite struct RosterPrivacyProcessTests {
    /// A bound stream of `userId`, past its roster request and first presence.
    private func online(_ sandbox: SandboxProcess, _ userId: Int, password: String) throws -> RawXMPPClient {
        guard let port = sandbox.chatEndpoint.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw TestSupportError("no chat port in \(sandbox.chatEndpoint)")
        }
        let client = try RawXMPPClient(port: port)
        guard client.authenticate(as: "\(userId)-\(sandbox.applicationId)", password: password) else {
            throw TestSupportError("\(userId) could not authenticate")
        }
        client.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>r</resource></bind></iq>"
                    + "<iq type='get' id='roster'><query xmlns='jabber:iq:roster'/></iq><presence/>"
                    + "<iq type='get' id='up'><ping xmlns='urn:xmpp:ping'/></iq>")
        guard client.read(untilContains: "id='up'") else { throw TestSupportError("no answer: \(client.received)") }
        return client
    }

    @Test func listsAndARequestOutliveARestart() throws {
        let directory = try TemporaryDirectory(prefix: "roster-privacy")
        let arguments = ["--db", directory.file("sandbox.db"), "--password-iterations", "1000", "--log-level", "warning"]
        let sandbox = try SandboxProcess(arguments: arguments)
        let ann = try signUpUser(on: sandbox, login: "ann-lists", password: "password-ann")
        let bob = try signUpUser(on: sandbox, login: "bob-lists", password: "password-bob")
        let app = sandbox.applicationId
        let annJID = "\(ann)-\(app)@localhost", bobJID = "\(bob)-\(app)@localhost"
        let a = try online(sandbox, ann, password: "password-ann")
        a.send("<presence to='\(bobJID)' type='subscribe'/>"
               + "<iq type='set' id='l'><query xmlns='jabber:iq:privacy'><list name='blocked'><item type='jid' value='\(bobJID)' action='deny' order='1'/></list></query></iq>"
               + "<iq type='set' id='d'><query xmlns='jabber:iq:privacy'><default name='blocked'/></query></iq>")
        #expect(a.read(untilContains: "<iq type='result' id='d'"))
        _ = sandbox.stop()

        let restarted = try SandboxProcess(arguments: arguments)
        defer { _ = restarted.stop() }
        let a2 = try online(restarted, ann, password: "password-ann")
        #expect(a2.received.contains("<item jid='\(bobJID)' subscription='none' ask='subscribe'/>"), "\(a2.received)")
        a2.send("<iq type='get' id='n'><query xmlns='jabber:iq:privacy'/></iq>")
        #expect(a2.read(untilContains: "<default name='blocked'/><list name='blocked'/>"))
        a2.send("</stream:stream>")
        #expect(a2.waitForClose())

        let b = try online(restarted, bob, password: "password-bob")
        #expect(b.received.contains("<presence from='\(annJID)' to='\(bobJID)/r' type='subscribe'/>"), "the request still waits")
        // Ann is offline: her default list judges, and stops Bob's message.
        b.send("<message type='chat' to='\(annJID)' id='m1'><body>hi</body></message>")
        #expect(b.read(untilContains: "<message type='error' id='m1'"))
        #expect(b.received.contains("<service-unavailable"))
    }
}
