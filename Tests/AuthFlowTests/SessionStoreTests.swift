import Diagnostics
import Testing
import Foundation
import AuthFlow
import QuickBloxAPI
import TestSupport

@Suite struct SessionStoreTests {
    func sample() -> StoredSession {
        StoredSession(token: "t0k3n", expiresAt: 2_000_000_000, loggedInAt: 1_900_000_000, userId: 5, login: "alice",
                      user: ["id": .int(5), "login": .string("alice")], applicationId: 1,
                      apiEndpoint: "http://127.0.0.1:1", chatEndpoint: "xmpp://127.0.0.1:2")
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func stateDirectoryResolutionOrder() {
        #expect(SessionStore.resolveDirectory(explicit: nil, environment: ["XDG_STATE_HOME": "/st"]) == "/st/chatctl")
        #expect(SessionStore.resolveDirectory(explicit: nil, environment: ["CHATCTL_STATE_DIR": "/s", "XDG_STATE_HOME": "/st"]) == "/s")
    }

    @Test func savesPrivatelyAndRoundTrips() throws {
        let temporary = try TemporaryDirectory()
        let base = temporary.file("store")
        let store = SessionStore(directory: base + "/nested/state", key: "abc")
        try store.save(sample())
        #expect(try mode(base + "/nested/state") == 0o700)
        #expect(try mode(store.path) == 0o600)
        #expect(try store.load() == sample())
        // No temporary files are left behind by the atomic write.
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/nested/state") == ["session-abc.json"])
        try store.remove()
        #expect(try store.load() == nil)
        try store.remove() // removing twice is fine
    }

    /// Session files on users' disks were written by Foundation's encoder (keys sorted, `/`
    /// escaped): they still load, and the one JSON writer writes them as that encoder did
    /// with `/` as it is.
    @Test func aFileWrittenByTheEarlierEncoderStillLoads() throws {
        let temporary = try TemporaryDirectory()
        let store = SessionStore(directory: temporary.file("store"), key: "k")
        let earlier = #"{"api_endpoint":"http:\/\/127.0.0.1:1","application_id":1,"chat_endpoint":"xmpp:\/\/127.0.0.1:2","#
            + #""expires_at":2000000000,"logged_in_at":1900000000,"login":"alice","token":"t0k3n","user":{"id":5,"login":"alice"},"user_id":5}"#
        try PrivateFiles.writeAtomically(store.path, Array(earlier.utf8))
        #expect(try store.load() == sample())

        try store.save(sample())
        let written = String(decoding: try #require(PrivateFiles.read(store.path)), as: UTF8.self)
        #expect(written == earlier.replacingOccurrences(of: #"\/"#, with: "/"))
        var anonymous = sample()
        anonymous.login = nil
        try store.save(anonymous)
        #expect(try store.load() == anonymous)
    }

    @Test func tightensAnExistingOpenDirectory() throws {
        let temporary = try TemporaryDirectory()
        let base = temporary.file("store")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try SessionStore(directory: base, key: "k").save(sample())
        #expect(try mode(base) == 0o700)
    }

    @Test func parentsAreNeverChangedAndSharedDirectoriesAreRefused() throws {
        let temporary = try TemporaryDirectory()
        let base = temporary.file("store")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try SessionStore(directory: base + "/a/b", key: "k").save(sample())
        #expect(try mode(base) == 0o755, "an existing parent keeps its mode")
        #expect(try mode(base + "/a") == 0o700)
        #expect(try mode(base + "/a/b") == 0o700)

        let shared = base + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o1777])
        #expect(throws: Failure.self) { try SessionStore(directory: shared, key: "k").save(sample()) }
        #expect(try mode(shared) == 0o1777, "a shared directory is refused, not changed")
    }

    @Test func corruptFileIsAnAuthenticationErrorNotACrash() throws {
        let temporary = try TemporaryDirectory()
        let base = temporary.file("store")
        let store = SessionStore(directory: base, key: "k")
        try PrivateFiles.writeAtomically(store.path, Array("{not json".utf8))
        #expect(throws: Failure.self) { _ = try store.load() }
    }
}
