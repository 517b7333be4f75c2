import Foundation
import Testing
import MessageCache
import TestSupport
@testable import ChatctlCLI
@testable import Presentation

/// How `chatctl outbox` shows a message with files (`send --attach`): what it waits
/// for, and its files as `history` shows attachments.
@Suite struct OutboxListingTests {
    static func upload(_ position: Int, name: String, type: String, size: Int64) -> OutboxUpload {
        OutboxUpload(position: position, source: name, file: "/s/outbox-files/upload-\(position)", keeping: .link, name: name, type: type,
                     contentType: "application/octet-stream", size: size, modifiedAt: 0, inode: 1, device: 1)
    }

    @Test func aMessageWithFilesSaysWhichIsUnderWayAndShowsThem() throws {
        let directory = try TemporaryDirectory()
        let cache = try ChatCache(path: directory.file("cache.sqlite"))
        let id = "6b0db884edb3b3d9cddf1330"
        try cache.enqueue(dialogID: "6b0db884c4ca891d2141e1c9", text: "[attachment]", clientMessageID: id, createdAt: 10, uploads: [
            Self.upload(0, name: "cat.jpg", type: "image", size: 1_258_291), Self.upload(1, name: "notes.txt", type: "file", size: 20),
            Self.upload(2, name: "demo\u{1B}[2J.mp4", type: "video", size: 5000),
        ])
        var entry = try #require(try cache.outboxEntry(clientMessageID: id))
        #expect(OutboxCommand.state(entry) == "uploading 1 of 3")
        #expect(OutboxCommand.text(entry) == "[image cat.jpg 1.2 MB] [file notes.txt 20 B] [video demo.mp4 4.9 KB]")
        entry.uploads[0].created(blobID: 1, uid: "u1", uploadURL: "http://s/", expiresAt: nil)
        entry.uploads[0].uploaded()
        entry.uploads[0].completed()
        #expect(OutboxCommand.state(entry) == "uploading 2 of 3")
        for index in 1...2 {
            entry.uploads[index].created(blobID: index + 1, uid: "u\(index + 1)", uploadURL: "http://s/", expiresAt: nil)
            entry.uploads[index].uploaded()
            entry.uploads[index].completed()
        }
        #expect(OutboxCommand.state(entry) == "to send")

        let json = JSONOutput.text(OutboxCommand.json(entry.uploads[0]))
        #expect(json == #"{"blob_id":1,"content_type":"application/octet-stream","file":"/s/outbox-files/upload-0","id":"u1","keeping":"link","name":"cat.jpg","size":1258291,"source":"cat.jpg","state":"completed","type":"image"}"#)
    }

    @Test func aMessageWithTextKeepsItBeforeItsFiles() throws {
        let directory = try TemporaryDirectory()
        let cache = try ChatCache(path: directory.file("cache.sqlite"))
        try cache.enqueue(dialogID: "d", text: "the minutes", clientMessageID: "c1", createdAt: 10,
                          uploads: [Self.upload(0, name: "minutes.pdf", type: "file", size: 20_480)])
        try cache.enqueue(dialogID: "d", text: "plain", clientMessageID: "c2", createdAt: 11)
        let entries = try cache.pending()
        #expect(entries.map(OutboxCommand.text) == ["the minutes [file minutes.pdf 20 KB]", "plain"])
        #expect(entries.map(OutboxCommand.state) == ["uploading 1 of 1", "to send"])
    }
}
