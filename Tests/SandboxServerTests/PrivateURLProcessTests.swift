// The download URL QuickBlox's JS SDK builds, `QB.content.privateUrl(uid)`:
// `/blobs/UID?token=T` without `.json` (docs/protocol.md §8).
import Foundation
import Testing
import TestSupport

@Suite struct PrivateURLProcessTests {
    /// Plain http, too: the route is the SDK's, whatever the scheme.
    @Test func theDownloadURLWithoutJSONAnswersAsTheJSONFormDoes() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token, name: "a.txt", contentType: "text/plain")
        let file = try s.makeFile("a.txt", size: 1000)
        #expect(try s.upload(blob.params, file: file).status == 201)
        #expect(try s.complete(blob, size: 1000, token: alice.token).status == 200)

        let bare = try s.sandbox.send(method: "GET", path: "/blobs/\(blob.uid)", query: "token=\(alice.token)")
        #expect(bare.status == 301, "\(bare.body)")
        let location = try #require(bare.headers["location"])
        let jsonForm = try s.location(blob.uid, token: alice.token)
        #expect(location.components(separatedBy: "?").first == jsonForm.components(separatedBy: "?").first)
        let got = s.directory.file("got")
        #expect(try s.get(location, output: got).status == 200)
        #expect(try sameContents(file, got))
        // Someone else's token, or none: refused as the `.json` form refuses.
        let bob = try s.user("bob")
        #expect(try s.sandbox.send(method: "GET", path: "/blobs/\(blob.uid)", query: "token=\(bob.token)").status == 403)
        #expect(try s.sandbox.send(method: "GET", path: "/blobs/\(blob.uid)").status == 401)
    }
}
