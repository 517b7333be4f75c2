#if canImport(Glibc)
import Glibc
#endif

/// Whole writes to fds 1 and 2, unbuffered: the config line must reach a
/// parent that waits for it before the server loop starts.
enum StandardStreams {
    static func out(_ text: String) { write(1, text) }
    static func err(_ text: String) { write(2, text) }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}
