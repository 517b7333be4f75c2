#if canImport(Glibc)
import Glibc
#endif

/// `--write-config PATH`: the config line in a file as well as on stdout, for a sandbox
/// run as a service, whose stdout goes to the journal (packaging/deb/chatctl-sandbox.service).
/// Mode 0640: the line holds the application's secret, for the owner's group alone.
enum ConfigLineFile {
    /// Writes `line` and a newline through a rename, so a reader never sees half of it.
    /// Returns what went wrong, naming the file, or nil.
    static func write(_ line: String, to path: String) -> String? {
        let temporary = path + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return "cannot write \(path) (--write-config): \(String(cString: strerror(errno)))" }
        // Exactly 0640 whatever the umask: the group is who the file is for.
        fchmod(fd, 0o640)
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        let failure = offset < bytes.count ? String(cString: strerror(errno)) : nil
        close(fd)
        if let failure {
            unlink(temporary)
            return "cannot write \(path) (--write-config): \(failure)"
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot write \(path) (--write-config): \(reason)"
        }
        return nil
    }
}
