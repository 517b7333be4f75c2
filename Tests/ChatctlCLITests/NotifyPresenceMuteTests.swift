import Testing
import ChatView
import MessageCache
import Messaging
@testable import ChatctlCLI

/// Pure parts: a desktop notification's title and body (`listen --notify`), which
/// messages notify, `users`' PRESENCE, and how a mute for a while reads.
@Suite struct NotifyPresenceMuteTests {
    static func message(_ text: String, sender: Int = 2) -> CachedMessage {
        CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "6b0db884c4ca891d2141e1c9", senderID: sender, recipientID: 1,
                      dateSent: 1_700_000_000, text: text, rawJSON: "{}")
    }

    static func dialog(muted: Bool = false, until: Int? = nil, type: DialogType = .group) -> CachedDialog {
        CachedDialog(id: "6b0db884c4ca891d2141e1c9", type: type, name: "ops", occupantIDs: [1, 2], updatedAt: 1, rawJSON: "{}",
                     muted: muted, mutedUntil: until)
    }

    // MARK: listen --notify

    @Test func aGroupsTitleIsSenderAndDialogAPrivateOnesTheSenderOnce() {
        let group = DesktopNotice(Self.message("hi"), sender: "alice", dialogTitle: "ops", isPrivate: false, bodyMarkup: true)
        #expect(group == DesktopNotice(title: "alice · ops", body: "hi"))
        let direct = DesktopNotice(Self.message("hi"), sender: "alice", dialogTitle: "alice", isPrivate: true, bodyMarkup: true)
        #expect(direct.title == "alice")
    }

    @Test func markupIsEscapedOnlyForAServiceThatReadsIt() {
        let text = #"<b>bold</b> & <a href="https://evil.example">link</a> <img src="x"/>"#
        let escaped = DesktopNotice(Self.message(text), sender: "a<i>", dialogTitle: "ops", isPrivate: false, bodyMarkup: true)
        #expect(escaped.body == #"&lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href="https://evil.example"&gt;link&lt;/a&gt; &lt;img src="x"/&gt;"#)
        #expect(!escaped.body.contains("<") && !escaped.body.contains(">"))
        #expect(escaped.title == "a<i> · ops", "the summary is plain text in the spec: never read as markup")
        let plain = DesktopNotice(Self.message(text), sender: "alice", dialogTitle: "ops", isPrivate: false, bodyMarkup: false)
        #expect(plain.body == text)
    }

    @Test func theBodyIsTheFirstLinesMadeInert() {
        let text = "one\u{1B}]0;owned\u{07}\n\n  two  \nthree\u{1B}[31m\nfour\nfive\nsix"
        let notice = DesktopNotice(Self.message(text), sender: "ali\u{1B}[2Jce", dialogTitle: "ops", isPrivate: false, bodyMarkup: true)
        #expect(notice.body == "one\ntwo\nthree\nfour\n…")
        #expect(notice.title == "alice · ops")
        let long = DesktopNotice(Self.message(String(repeating: "x", count: 1000)), sender: "a", dialogTitle: "o", isPrivate: false,
                                 bodyMarkup: false)
        #expect(long.body.count == DesktopNotice.maximumCharacters && long.body.hasSuffix("…"))
    }

    @Test func onlyOthersMessagesInDialogsNotMutedNotify() {
        let now = 1_000
        #expect(ListenNotifications.decide(outgoing: false, dialog: Self.dialog(), now: now) == .notify)
        #expect(ListenNotifications.decide(outgoing: false, dialog: nil, now: now) == .notify, "a dialog not cached yet")
        #expect(ListenNotifications.decide(outgoing: true, dialog: Self.dialog(), now: now) == .skip, "ours, from another device")
        #expect(ListenNotifications.decide(outgoing: false, dialog: Self.dialog(muted: true), now: now) == .skip)
        #expect(ListenNotifications.decide(outgoing: false, dialog: Self.dialog(muted: true, until: now + 1), now: now) == .skip)
        #expect(ListenNotifications.decide(outgoing: false, dialog: Self.dialog(muted: true, until: now), now: now) == .unmuteThenNotify)
    }

    @Test func noSessionBusIsKnownWithoutLoadingAnything() {
        #expect(!DesktopNotifier.hasSessionBus([:]))
        #expect(!DesktopNotifier.hasSessionBus(["DBUS_SESSION_BUS_ADDRESS": ""]))
        #expect(!DesktopNotifier.hasSessionBus(["XDG_RUNTIME_DIR": "/nonexistent-runtime-dir"]))
        #expect(DesktopNotifier.hasSessionBus(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        let (notifier, reason) = DesktopNotifier.connect(environment: ["XDG_RUNTIME_DIR": "/nonexistent-runtime-dir"])
        #expect(notifier == nil)
        #expect(reason == "no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)")
    }

    // MARK: users

    @Test func presenceReadsAsTheChatViewSaysIt() {
        let now = 100_000
        #expect(UsersCommand.column(.online, now: now, clock: .utc) == "online")
        #expect(UsersCommand.column(.lastSeen(at: now - 300), now: now, clock: .utc) == "last seen 5 min ago")
        #expect(UsersCommand.column(.offline, now: now, clock: .utc) == "offline")
        #expect(UsersCommand.column(nil, now: now, clock: .utc) == "")
    }

    @Test func jsonAddsPresenceAndLastSeenToTheServersObject() {
        let raw = #"{"id":2,"login":"bob"}"#
        #expect(UsersCommand.json(raw, .online) == #"{"id":2,"login":"bob","presence":"online","last_seen":null}"#)
        #expect(UsersCommand.json(raw, .lastSeen(at: 1_700_000_000)) == #"{"id":2,"login":"bob","presence":"offline","last_seen":1700000000}"#)
        #expect(UsersCommand.json(raw, .offline) == #"{"id":2,"login":"bob","presence":"offline","last_seen":null}"#)
        #expect(UsersCommand.json(raw, nil) == #"{"id":2,"login":"bob","presence":null,"last_seen":null}"#)
        #expect(UsersCommand.json("{}", nil) == #"{"presence":null,"last_seen":null}"#)
    }

    // MARK: dialogs mute --for

    @Test func aMuteForAWhileSaysWhenItEnds() {
        let now = 1_750_000_000  // 2025-06-15 15:06:40 UTC
        #expect(MuteLabel.column(Self.dialog(), now: now, clock: .utc) == "")
        #expect(MuteLabel.column(Self.dialog(muted: true), now: now, clock: .utc) == "muted")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now + 45 * 60), now: now, clock: .utc) == "muted 45m")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now + 30), now: now, clock: .utc) == "muted 1m")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now + 8 * 3600), now: now, clock: .utc) == "muted until 23:06")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now + 23 * 3600), now: now, clock: .utc) == "muted until 14:06",
                "under a day: the next 14:06, tomorrow's")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now + 3 * 86400), now: now, clock: .utc) == "muted until Wed 18 Jun")
        #expect(MuteLabel.column(Self.dialog(muted: true, until: now - 1), now: now, clock: .utc) == "muted",
                "ended but not undone yet (offline): the server still has it muted")
        #expect(MuteLabel.detail(Self.dialog()) == "no")
        #expect(MuteLabel.detail(Self.dialog(muted: true)) == "yes")
        #expect(MuteLabel.detail(Self.dialog(muted: true, until: now)).hasPrefix("yes, until 2025-06-1"))
    }
}
