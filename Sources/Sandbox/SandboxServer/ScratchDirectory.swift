// The private temp directory of a sandbox without a database file (its `ca.pem` and blobs).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import SandboxBlobEndpoint
import SandboxLogging

/// `$TMPDIR/chatctl-sandbox-XXXXXX` (0700) holding `owner.pid`, and what the sandbox puts
/// there. Removed at shutdown; a crash cannot do that, so each start first removes the
/// ones whose owner process is gone (docs/protocol.md §1).
struct ScratchDirectory {
    static let prefix = "chatctl-sandbox-"
    static let ownerFile = "owner.pid"
    let path: String

    /// Removes stale directories, then makes ours and writes our pid into it.
    static func make(environment: [String: String] = ProcessInfo.processInfo.environment,
                     log: SandboxLog? = nil) throws(SandboxFailure) -> ScratchDirectory {
        let parent = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        for stale in staleDirectories(in: parent) {
            removeTree(stale)
            log?.log(.info, "removed \(stale), left by a sandbox that is no longer running")
        }
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SandboxFailure("cannot create a temporary directory in \(parent): \(String(cString: strerror(errno)))")
        }
        let directory = ScratchDirectory(path: String(cString: made))
        do {
            try directory.writeFile(named: ownerFile, contents: "\(getpid())\n")
        } catch {
            removeTree(directory.path)
            throw error
        }
        return directory
    }

    /// Our directories in `parent` whose `owner.pid` names a process that no longer exists.
    /// One without the file is left alone: it may be another sandbox's, just being made.
    static func staleDirectories(in parent: String) -> [String] {
        var stale: [String] = []
        for name in DirectoryListing.names(in: parent) ?? [] {
            guard name.hasPrefix(prefix), name.utf8.count == prefix.utf8.count + 6 else { continue }
            let path = parent + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == getuid(),
                  let owner = try? String(contentsOfFile: path + "/" + ownerFile, encoding: .utf8),
                  let pid = Int32(owner.split(whereSeparator: \.isWhitespace).first ?? ""), pid > 0, pid != getpid()
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(path) }
        }
        return stale
    }

    /// A path inside (`BlobFiles.prepare` makes the blobs' one).
    func subdirectory(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` as a new 0600 file here; returns its path.
    @discardableResult
    func writeFile(named name: String, contents: String) throws(SandboxFailure) -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SandboxFailure("cannot write \(file): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw SandboxFailure("cannot write \(file)") }
        return file
    }

    func remove() { Self.removeTree(path) }

    /// Removes a directory and everything under it (no symbolic link is followed).
    static func removeTree(_ directory: String) {
        if let names = DirectoryListing.names(in: directory) {
            for name in names {
                let path = directory + "/" + name
                var status = stat()
                if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    removeTree(path)
                } else {
                    unlink(path)
                }
            }
        }
        rmdir(directory)
    }
}
