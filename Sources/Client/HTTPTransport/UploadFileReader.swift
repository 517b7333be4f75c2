#if canImport(Glibc)
import Glibc
#endif

/// Reads an upload's file part for libcurl's read callback, with `pread` at its
/// own offset, so curl may rewind it (a seek) and nothing else moves the
/// descriptor. Remembers why it stopped, to name the file in the error.
final class UploadFileReader {
    let file: UploadFile
    private(set) var position: Int64 = 0
    private(set) var failure: String?

    init(file: UploadFile) { self.file = file }

    /// Fills up to `capacity` bytes; 0 at the end; nil when the file cannot be read
    /// or ended before its size (it changed while being sent).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let wanted = Int(min(Int64(capacity), file.size - position))
        guard wanted > 0 else { return 0 }
        while true {
            let count = pread(file.fileDescriptor, buffer, wanted, off_t(position))
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                failure = "cannot read \(file.description): \(String(cString: strerror(errno)))"
                return nil
            }
            if count == 0 {
                failure = "\(file.description) changed while it was sent: it ends after \(position) of \(file.size) bytes"
                return nil
            }
            position += Int64(count)
            return count
        }
    }

    /// Where the next read starts (curl rewinds to 0 to send the body again).
    func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= file.size else { return false }
        position = offset
        return true
    }
}

@available(*, unavailable)
extension UploadFileReader: Sendable {}
