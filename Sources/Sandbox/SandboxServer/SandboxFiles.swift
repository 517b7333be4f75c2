// Where a sandbox keeps its files: the blobs, and the CA file of its generated certificate.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import SandboxLogging

/// Beside the database file (`DB.blobs/`, `DB.ca.pem`), or, with the database in memory, in a
/// private temporary directory that the sandbox removes when it stops.
struct SandboxFiles {
    /// The database file, absolute; nil in memory.
    let databaseFile: String?
    /// The temporary directory, when there is no database file.
    let scratch: ScratchDirectory?
    /// Where the blobs' files go.
    let blobDirectory: String

    init(databasePath: String?, log: SandboxLog) throws {
        databaseFile = databasePath.flatMap { $0 == ":memory:" ? nil : Self.absolutePath($0) }
        if let databaseFile {
            scratch = nil
            blobDirectory = databaseFile + ".blobs"
        } else {
            let made = try ScratchDirectory.make(log: log)
            scratch = made
            blobDirectory = made.subdirectory("blobs")
        }
    }

    /// Writes the CA file clients are told to trust; returns its path.
    func keepCertificate(_ pem: String) throws -> String? {
        if let databaseFile { return try Self.replaceFile(databaseFile + ".ca.pem", contents: pem) }
        return try scratch?.writeFile(named: "ca.pem", contents: pem)
    }

    /// `path` made absolute against the working directory, so the config line names files
    /// that a client started elsewhere finds.
    private static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// Writes `contents` to `file` (0640: a service's clients read it as its group, as they read
    /// its --write-config file) through a rename, so a reader never sees half of it;
    /// left alone when it already holds exactly that. Returns `file`.
    private static func replaceFile(_ file: String, contents: String) throws -> String {
        if let current = try? String(contentsOfFile: file, encoding: .utf8), current == contents { return file }
        let temporary = file + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw SandboxFailure("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw SandboxFailure("cannot write \(file): \(String(cString: strerror(errno)))")
        }
        return file
    }
}
