import Testing
import Messaging
import Presentation

/// How contacts are written (ContactText.swift): the state in words, the JSON with RFC 6121's
/// values, and listen's events and lines, other users' names made safe for a terminal.
@Suite struct ContactTextTests {
    @Test(arguments: [
        (Contact(userID: 2, subscription: .both), "both"),
        (Contact(userID: 2, subscription: .from), "they see you"),
        (Contact(userID: 2, subscription: .to), "you see them"),
        (Contact(userID: 2, subscription: .none, isRequested: true), "requested"),
        (Contact(userID: 2, subscription: .none, asksYou: true, isListed: false), "asks you"),
        (Contact(userID: 2, subscription: .from, isRequested: true), "they see you, requested"),
        (Contact(userID: 2, subscription: .none), "none"),
    ])
    func stateWords(contact: Contact, words: String) {
        #expect(ContactText.state(contact) == words)
    }

    @Test func theJSONKeepsTheRawValuesAndAddsAskAndPending() {
        let requested = ContactText.json(Contact(userID: 2, subscription: .none, isRequested: true), login: "bob", fullName: nil, presence: nil)
        #expect(JSONOutput.text(requested)
            == #"{"ask":"subscribe","full_name":null,"id":2,"last_seen":null,"login":"bob","pending":false,"presence":null,"subscription":"none"}"#)
        let both = ContactText.json(Contact(userID: 2, subscription: .both), login: "bob", fullName: "Bob", presence: .lastSeen(at: 1_700_000_000))
        #expect(JSONOutput.text(both)
            == #"{"ask":null,"full_name":"Bob","id":2,"last_seen":1700000000,"login":"bob","pending":false,"presence":"offline","subscription":"both"}"#)
    }

    @Test func listenSaysRequestsAsEventsAndLines() {
        let user = ContactText.user(id: 7, login: "alice", fullName: "Alice\u{1B}[31m")
        #expect(ContactText.listenJSON(.requested, user: user)
            == #"{"event":"contact_request","user":{"full_name":"Alice\u001b[31m","id":7,"login":"alice"}}"# + "\n")
        #expect(ContactText.listenJSON(.answered(accepted: true), user: user) == nil)
        #expect(ContactText.line(.requested, name: "Alice\u{1B}[31m", login: "alice")
            == "Alice asks to be your contact (chatctl contacts accept @alice, or reject)")
        #expect(ContactText.line(.accepted, name: "Bob", login: nil) == "Bob accepted your contact request")
    }
}
