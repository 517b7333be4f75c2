// Reading a directory's names (the scratch and blob directories). Found by make sanitize:
// copying a dirent's whole 256-byte d_name read past readdir's shorter records.
import Foundation
import Testing
import TestSupport
import SandboxBlobEndpoint
@testable import SandboxServer

@Suite struct DirectoryListingTests {
    /// Short names make short records; the longest a file system allows (255 bytes) and
    /// names that are not ASCII must come back whole. Under AddressSanitizer (make
    /// sanitize) the old copy of `d_name` was a heap-buffer-overflow here.
    @Test func namesOfEveryLengthComeBackWholeAndOnlyThem() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let names = ["a", "bc", "héllo-中文", String(repeating: "n", count: 255), ".hidden"]
        for name in names { #expect(FileManager.default.createFile(atPath: directory.path + "/" + name, contents: Data())) }
        try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: false)
        #expect(DirectoryListing.names(in: directory.path)?.sorted() == (names + ["sub"]).sorted())
    }

    @Test func aDirectoryThatCannotBeOpenedIsNil() {
        #expect(DirectoryListing.names(in: "/nonexistent-\(getpid())") == nil)
    }

    @Test func removeTreeRemovesNestedShortAndLongNames() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let tree = directory.path + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/x/y", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: tree + "/x/y/" + String(repeating: "z", count: 200), contents: Data("1".utf8)))
        #expect(FileManager.default.createFile(atPath: tree + "/q", contents: Data()))
        ScratchDirectory.removeTree(tree)
        #expect(!FileManager.default.fileExists(atPath: tree))
    }
}
