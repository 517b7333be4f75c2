import Testing
import Foundation
@testable import MessageCache
import SQLiteStore
import TestSupport
import ChatIdentifiers

/// What the cache does when its file is not what it should be: written by a newer
/// chatctl, damaged in its header or in a page, in a directory that cannot be
/// written, on a full disk. Each is a clear error of its own kind, and the outbox
/// survives (docs/faults.md).
@Suite("MessageCache: faults")
struct CacheFaultTests {
    static let environment = ProcessInfo.processInfo.environment
    static let workerPath = "CHATCTL_CACHE_FAULT_WORKER_PATH"
    static let isWorker = environment[workerPath] != nil
    let fixture: CacheFixture
    let d = dialogID(1)

    init() throws { fixture = try CacheFixture() }

    /// A cache with dialogs, enough messages for many pages, and `outbox` entries.
    func fill(messages: Int = 400, outbox: Int = 3, text: String = "hello") throws {
        let cache = try fixture.open()
        try cache.upsertDialogs([dialog(1)])
        try cache.upsertMessages((0..<messages).map { message($0, dialog: d, date: $0, text: "message \($0) " + String(repeating: "x", count: 200)) })
        for i in 0..<outbox {
            try cache.enqueue(dialogID: d, text: "\(text) \(i)", clientMessageID: hexID(i, prefix: "c"), createdAt: i)
        }
        try cache.close()
    }

    /// Overwrites page `number` (1-based) of the file with a pattern SQLite cannot read.
    func damagePage(_ number: Int, pageSize: Int = 4096, from offset: Int = 0) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: fixture.path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((number - 1) * pageSize + offset))
        handle.write(Data(repeating: 0xA5, count: pageSize - offset))
    }

    /// Pages of `table` as SQLite's dbstat table lists them (leaves and interior pages).
    func pages(of table: String, type: String? = nil) throws -> [Int] {
        let db = try Database(path: fixture.path)
        defer { try? db.close() }
        if let type {
            return try db.query("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno", [.text(table), .text(type)]) { $0.int(0) }
        }
        return try db.query("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", [.text(table)]) { $0.int(0) }
    }

    // MARK: a newer chatctl's cache

    @Test(.enabled(if: !isWorker))
    func aCacheFromANewerChatctlIsReadButNeverWritten() throws {
        try fill(messages: 2, outbox: 1)
        do {
            let db = try Database(path: fixture.path)
            try db.execute("PRAGMA user_version = 99")
        }
        let cache = try fixture.open()
        let known = CacheSchema.migrator.latestVersion
        #expect(cache.access == .newerSchema(version: 99, known: known))
        #expect(try cache.dialogs().map(\.id) == [d])
        #expect(try cache.pending().count == 1)
        let error = try #require(throws: MessageCacheError.self) { try cache.upsertDialogs([dialog(2)]) }
        #expect(error.kind == .newerSchema)
        #expect(error.message == "the cache was written by a newer chatctl (schema 99, this one knows \(known))")
        #expect(throws: MessageCacheError.self) { try cache.enqueue(dialogID: d, text: "x", clientMessageID: hexID(9, prefix: "c"), createdAt: 9) }
        #expect(try cache.database.userVersion() == 99, "never migrated down")
        let report = ChatCache.check(path: fixture.path)
        #expect(report.isNewer && !report.isHealthy && report.problems.isEmpty)
    }

    // MARK: damage

    @Test(.enabled(if: !isWorker))
    func aDamagedHeaderIsDamagedNotACrashAndRebuildStartsAfresh() throws {
        try fill(messages: 10, outbox: 2)
        try damagePage(1)
        let error = try #require(throws: MessageCacheError.self) { _ = try fixture.open() }
        #expect(error.kind == .damaged)
        #expect(error.message.hasPrefix("the message cache \(fixture.path) is damaged"))
        let report = ChatCache.check(path: fixture.path)
        #expect(report.exists && !report.isDatabase && !report.isHealthy)

        let (cache, rebuilt) = try ChatCache.rebuild(path: fixture.path, now: 1000)
        #expect(rebuilt.movedTo == fixture.path + ".old-1000")
        #expect(FileManager.default.fileExists(atPath: fixture.path + ".old-1000"), "the old file is kept")
        #expect(rebuilt.outboxSaved == 0 && rebuilt.outboxLossUnknown)
        #expect(try cache.dialogs().isEmpty)
        #expect(ChatCache.check(path: fixture.path).isHealthy)
    }

    @Test(.enabled(if: !isWorker))
    func damagedMessagePagesAreReportedAndRebuildKeepsTheWholeOutbox() throws {
        try fill(messages: 400, outbox: 3)
        do {
            let cache = try fixture.open()
            try cache.enqueue(dialogID: d, text: "with a file", clientMessageID: hexID(7, prefix: "c"), createdAt: 7,
                              uploads: [OutboxUploadTests.upload(0), OutboxUploadTests.upload(1)])
        }
        for page in try pages(of: "messages", type: "leaf").prefix(3) { try damagePage(page) }

        let cache = try fixture.open()
        let error = try #require(throws: MessageCacheError.self) {
            _ = try cache.history(dialogID: d, limit: 1000)
        }
        #expect(error.kind == .damaged)
        let report = ChatCache.check(path: fixture.path)
        #expect(!report.isHealthy && !report.problems.isEmpty && report.outboxCount == 4)
        try cache.close()

        let (fresh, rebuilt) = try ChatCache.rebuild(path: fixture.path, now: 2000)
        #expect(rebuilt.outboxSaved == 4 && rebuilt.uploadsSaved == 2 && rebuilt.outboxLost == 0 && !rebuilt.outboxLossUnknown)
        let pending = try fresh.pending()
        #expect(pending.map(\.text) == ["hello 0", "hello 1", "hello 2", "with a file"])
        #expect(pending.last?.uploads == [OutboxUploadTests.upload(0), OutboxUploadTests.upload(1)])
        #expect(try fresh.messageCount() == 0)
        #expect(ChatCache.check(path: fixture.path).isHealthy)
    }

    @Test(.enabled(if: !isWorker))
    func aDamagedOutboxPageLosesOnlyItsRowsAndSaysHowMany() throws {
        try fill(messages: 0, outbox: 300, text: String(repeating: "long text ", count: 20))
        let leaves = try pages(of: "outbox", type: "leaf")
        try #require(leaves.count >= 5)
        let victim = leaves[leaves.count / 2]
        let onIt = try {
            let db = try Database(path: fixture.path)
            return try db.queryFirst("SELECT ncell FROM dbstat WHERE pageno = ?", [.int(victim)]) { $0.int(0) } ?? 0
        }()
        try damagePage(victim)

        let (fresh, rebuilt) = try ChatCache.rebuild(path: fixture.path, now: 3000)
        #expect(rebuilt.outboxLost == onIt, "the rows of the damaged page, counted by the indexes that still name them")
        #expect(rebuilt.outboxSaved == 300 - onIt && !rebuilt.outboxLossUnknown)
        let saved = try fresh.pending()
        #expect(saved.count == 300 - onIt)
        #expect(saved.first?.text.hasPrefix("long text") == true)
        #expect(Set(saved.map(\.clientMessageID)).count == saved.count)
    }

    @Test(.enabled(if: !isWorker))
    func aSoundCacheChecksOK() throws {
        try fill(messages: 50, outbox: 2)
        let report = ChatCache.check(path: fixture.path)
        #expect(report.isHealthy && report.problems.isEmpty && report.searchIndexOK == true)
        #expect(report.schemaVersion == CacheSchema.migrator.latestVersion && report.outboxCount == 2)
        #expect(ChatCache.check(path: fixture.directory.file("none.sqlite")).isHealthy, "no cache yet is nothing wrong")
    }

    @Test(.enabled(if: !isWorker))
    func aSearchIndexOutOfStepIsFound() throws {
        try fill(messages: 50, outbox: 0)
        do {
            let db = try Database(path: fixture.path)
            // The index forgets a row the messages table still has.
            try db.execute("INSERT INTO messages_fts (messages_fts, rowid, text, dialog_id, attachment_names) SELECT 'delete', seq, text, dialog_id, attachment_names FROM messages WHERE seq = 7")
        }
        let report = ChatCache.check(path: fixture.path)
        #expect(report.searchIndexOK == false && !report.isHealthy)
    }

    // MARK: a full disk, and a directory that cannot be written (in a child process)

    /// The child's side: see `aFullDiskFailsTheWriteAndKeepsTheOutbox`.
    @Test(.enabled(if: isWorker))
    func fullDiskWorker() throws {
        let path = try #require(Self.environment[Self.workerPath])
        let cache = try ChatCache(path: path)
        let error = try #require(throws: MessageCacheError.self) {
            try cache.enqueue(dialogID: d, text: String(repeating: "big ", count: 100_000), clientMessageID: hexID(99, prefix: "c"), createdAt: 99)
        }
        #expect(error.kind == .full, "\(error) errno \(String(describing: error.underlying?.systemErrno))")
        #expect(error.message == "cannot write the message cache \(path): no space left (the disk is full, or a quota or file-size limit was reached)")
        // Reads go on.
        #expect(try cache.pending().count == 3)
        #expect(try cache.dialogs().count == 1)
    }

    // ThreadSanitizer's runtime dies of SIGBUS in a process under a 256 KiB file-size
    // limit before any test code runs: make sanitize's thread pass cannot show this one.
    @Test(.enabled(if: !isWorker),
          .disabled(if: environment["CHATCTL_SANITIZER"] == "thread", "ThreadSanitizer cannot run under a file-size limit"))
    func aFullDiskFailsTheWriteAndKeepsTheOutbox() throws {
        try fill(messages: 10, outbox: 3)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let (path, arguments) = Confinement.fileSizeLimit(
            256 * 1024, executable, ["--testing-library", "swift-testing", "--filter", "CacheFaultTests/fullDiskWorker"])
        let worker = try ChildProcess(path, arguments, environment: [Self.workerPath: fixture.path])
        let result = worker.finish(timeout: 120)
        #expect(result.status == 0 && !result.timedOut, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("fullDiskWorker() passed"), "\(result.stdout)\(result.stderr)")
        let cache = try fixture.open()
        #expect(try cache.pending().map(\.text) == ["hello 0", "hello 1", "hello 2"])
        #expect(ChatCache.check(path: fixture.path).isHealthy)
    }

    /// The child's side: see `aReadOnlyDirectoryReadsAndNamesItself`.
    @Test(.enabled(if: isWorker))
    func readOnlyWorker() throws {
        let path = try #require(Self.environment[Self.workerPath])
        let cache = try ChatCache(path: path)
        #expect(cache.access == .readOnly(directory: ChatCache.directory(of: path)))
        #expect(try cache.pending().count == 3)
        #expect(try cache.dialogs().count == 1)
        let error = try #require(throws: MessageCacheError.self) { try cache.upsertDialogs([dialog(2)]) }
        #expect(error.kind == .readOnly)
        #expect(error.message.hasPrefix("cannot write the message cache in \(ChatCache.directory(of: path))"))
        // No cache there yet: creating one fails the same way.
        let none = try #require(throws: MessageCacheError.self) { _ = try ChatCache(path: ChatCache.directory(of: path) + "/new.sqlite") }
        #expect(none.kind == .readOnly)
    }

    @Test(.enabled(if: !isWorker))
    func aReadOnlyDirectoryReadsAndNamesItself() throws {
        try fill(messages: 10, outbox: 3)
        chmod(fixture.directory.path, 0o500)
        defer { chmod(fixture.directory.path, 0o700) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let (path, arguments) = Confinement.withoutPermissionOverride(
            executable, ["--testing-library", "swift-testing", "--filter", "CacheFaultTests/readOnlyWorker"])
        let worker = try ChildProcess(path, arguments, environment: [Self.workerPath: fixture.path])
        let result = worker.finish(timeout: 120)
        #expect(result.status == 0 && !result.timedOut, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("readOnlyWorker() passed"), "\(result.stdout)\(result.stderr)")
    }
}
