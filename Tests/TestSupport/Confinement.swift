import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Programs run under a limit a fault test needs, with tools every Debian has
/// (util-linux): no mounts, so it works in CI as it does here.
package enum Confinement {
    /// `path arguments` with a file-size limit of `bytes` (`RLIMIT_FSIZE`, what a full
    /// disk looks like to one process) and `SIGXFSZ` ignored, so a write past it fails
    /// with `EFBIG` instead of killing the process. An ignored signal stays ignored
    /// across `exec`.
    package static func fileSizeLimit(_ bytes: Int, _ path: String, _ arguments: [String]) -> (path: String, arguments: [String]) {
        ("/bin/sh", ["-c", "trap '' XFSZ; exec prlimit --fsize=\(bytes) -- \"$0\" \"$@\"", path] + arguments)
    }

    /// `path arguments` as a user file permissions apply to: root keeps its uid but
    /// loses the capabilities that override them (a read-only directory is then
    /// read-only to it too); anyone else runs as they are.
    package static func withoutPermissionOverride(_ path: String, _ arguments: [String]) -> (path: String, arguments: [String]) {
        guard getuid() == 0 else { return (path, arguments) }
        return ("/usr/bin/setpriv", ["--bounding-set", "-dac_override,-dac_read_search,-fowner", "--", path] + arguments)
    }
}
