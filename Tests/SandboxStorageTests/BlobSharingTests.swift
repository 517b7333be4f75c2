// Who may read a private blob (docs/protocol.md §8), from the messages that refer to it,
// in process over the sandbox's own stores: any route a message takes in (REST, XMPP) ends
// in ChatStore.insertMessage.
import Foundation
import Testing
import SQLiteStore
@testable import SandboxStorage

@Suite struct BlobSharingTests {
    let database: SandboxDatabase
    let chat: ChatStore
    let blobs: BlobStore
    let owner: Int, peer: Int, stranger: Int

    init() throws {
        database = try SandboxDatabase(path: nil, tokenTTL: 60)
        chat = ChatStore(database: database, applicationId: 1, chatDomain: "localhost")
        blobs = BlobStore(database: database)
        owner = try database.insertUser(NewUser(login: "owner", password: "password-1")).id
        peer = try database.insertUser(NewUser(login: "peer", password: "password-1")).id
        stranger = try database.insertUser(NewUser(login: "stranger", password: "password-1")).id
    }

    func send(_ uid: String, in dialog: DialogRecord) throws -> MessageRecord {
        try chat.insertMessage(NewMessage(id: nil, dialogId: dialog.id, body: "[attachment]", senderId: owner,
                                          attachments: [MessageAttachment(fields: [("type", "image"), ("id", uid)])]), in: dialog)
    }

    @Test func aMessageSharesItsBlobWithTheDialogsOccupantsOnly() throws {
        let blob = try blobs.create(ownerId: owner, contentType: "image/png", name: "a.png", isPublic: false)
        let dialog = try chat.createDialog(type: .group, name: "g", photo: nil, ownerId: owner, occupants: [peer])
        #expect(try !blobs.isShared(uid: blob.uid, with: peer))
        let message = try send(blob.uid, in: dialog)
        #expect(try blobs.isShared(uid: blob.uid, with: peer))
        #expect(try !blobs.isShared(uid: blob.uid, with: stranger))

        // Someone taken out of the dialog no longer may; a deleted message shares nothing.
        try chat.updateDialog(id: dialog.id, name: nil, photo: nil, push: [], pull: [peer])
        #expect(try !blobs.isShared(uid: blob.uid, with: peer))
        try chat.updateDialog(id: dialog.id, name: nil, photo: nil, push: [peer], pull: [])
        #expect(try blobs.isShared(uid: blob.uid, with: peer))
        try chat.deleteMessage(message)
        #expect(try !blobs.isShared(uid: blob.uid, with: peer))
    }

    @Test func aPublicGroupSharesWithAnyone() throws {
        let blob = try blobs.create(ownerId: owner, contentType: "image/png", name: "a.png", isPublic: false)
        let dialog = try chat.createDialog(type: .publicGroup, name: "lobby", photo: nil, ownerId: owner, occupants: [])
        _ = try send(blob.uid, in: dialog)
        #expect(try blobs.isShared(uid: blob.uid, with: stranger))
    }

    @Test func uidsAreNeverAllDigitsAndTheSecretIsKept() throws {
        for _ in 0..<200 {
            let uid = BlobStore.newUID()
            #expect(uid.count == 34 && uid.hasSuffix("00") && uid.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
            #expect(uid.contains { $0.isLetter })
        }
        let secret = try blobs.storageSecret()
        #expect(secret.count == 32)
        #expect(try blobs.storageSecret() == secret)
    }

    /// Messages stored before the blob tables existed get their references from the migration.
    @Test func theMigrationFindsReferencesInOlderMessages() throws {
        let steps = SandboxDatabase.migrator.migrations
        let index = try #require(steps.firstIndex { $0.name == "blobs" })
        let db = try Database(path: ":memory:")
        try Migrator(Array(steps.prefix(index))).migrate(db)
        try db.execute("""
            INSERT INTO dialogs (id, type, user_id, created_at, updated_at) VALUES ('d1', 2, 1, 0, 0);
            INSERT INTO dialog_occupants (dialog_id, user_id, position) VALUES ('d1', 1, 1), ('d1', 2, 2);
            INSERT INTO messages (id, dialog_id, body, sender_id, recipient_id, date_sent, attachments, markable, custom,
                                  created_at, updated_at)
            VALUES ('m1', 'd1', '', 1, 0, 0, '[[["type","image"],["id","ab00"]],[["type","file"],["name","no id"]]]', 0, '[]', 0, 0),
                   ('m2', 'd1', 'text', 1, 0, 0, '[]', 0, '[]', 0, 0);
            """)
        try Migrator(steps).migrate(db)
        let references = try db.query("SELECT message_id, blob_uid FROM message_blobs") { ($0.string(0) ?? "", $0.string(1) ?? "") }
        #expect(references.count == 1)
        #expect(references.first?.0 == "m1" && references.first?.1 == "ab00")
    }
}
