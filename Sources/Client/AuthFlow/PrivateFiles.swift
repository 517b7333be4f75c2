#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that hold a session: 0600 in a 0700 directory, written atomically
/// (a private temporary file renamed over the old one), so a concurrent
/// chatctl never reads a torn or world-readable file. Not fsynced: two fsyncs
/// cost ~40 ms of every login here, and what they guard against (a power cut
/// in that instant) costs at worst a session that reads as unreadable, which
/// asks for 'chatctl login' again.
package enum PrivateFiles {
    package struct FileError: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// True when users other than the owner and the file's group may read it (mode o+r): a
    /// secret there is already out, so reading it says so, as ssh does of a key left open.
    package static func othersCanRead(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_mode & S_IROTH != 0
    }

    package static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return result }
            result.append(contentsOf: buffer[0..<n])
        }
    }

    /// Creates the directory (and missing parents) as 0700. An existing directory
    /// of ours that others can read is tightened to 0700, but only that one: a
    /// parent is never touched, and a shared directory (world-writable or sticky,
    /// like /tmp) is refused rather than changed.
    package static func ensureDirectory(_ path: String) throws(FileError) {
        try ensureDirectory(path, isLeaf: true)
    }

    private static func ensureDirectory(_ path: String, isLeaf: Bool) throws(FileError) {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw FileError(path: path, reason: "exists and is not a directory") }
            guard isLeaf, (st.st_mode & 0o077) != 0 else { return }
            if (st.st_mode & (S_ISVTX | 0o002)) != 0 || st.st_uid != geteuid() {
                throw FileError(path: path, reason: "is shared with other users; choose a private directory (--state-dir)")
            }
            if chmod(path, 0o700) != 0 { throw FileError(path: path, reason: errorText()) }
            return
        }
        let parent = parentDirectory(of: path)
        if !parent.isEmpty && parent != path { try ensureDirectory(parent, isLeaf: false) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw FileError(path: path, reason: errorText())
        }
    }

    package static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let dir = parentDirectory(of: path)
        try ensureDirectory(dir.isEmpty ? "." : dir)
        var template = Array("\(path).tmp.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileError(path: path, reason: errorText()) }
        let tmpPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = fchmod(fd, 0o600) == 0
        var written = 0
        while ok && written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; ok = false } else { written += n }
        }
        let reason = ok ? "" : errorText()
        close(fd)
        guard ok, rename(tmpPath, path) == 0 else {
            let why = ok ? errorText() : reason
            unlink(tmpPath)
            throw FileError(path: path, reason: why)
        }
    }

    /// Removes the file; a file already gone is fine.
    package static func remove(_ path: String) throws(FileError) {
        if unlink(path) != 0 && errno != ENOENT { throw FileError(path: path, reason: errorText()) }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
