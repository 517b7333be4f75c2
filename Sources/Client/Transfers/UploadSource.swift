#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import HTTPTransport

/// A file to upload, opened and judged: its size, its MIME type and attachment
/// kind from its content (libmagic), and the name it goes by. Owns the
/// descriptor it reads from. A pipe (standard input, `<(cmd)`) is first copied
/// to a file a piece at a time, since the upload must announce its length and may
/// have to be sent again; only its first bytes are ever held, to judge its type.
/// `keep(in:)` holds on to the bytes for an upload a later process finishes
/// (the outbox), and `kept` opens them again there.
package final class UploadSource {
    /// How errors name it: the path as given, or "standard input".
    package let description: String
    /// The attachment's name: the file's base name, or the one given.
    package let name: String
    package let size: Int64
    package let contentType: String
    package let kind: AttachmentKind
    let fileDescriptor: Int32
    /// The file's path as given, when the bytes are read from it in place.
    let path: String?
    /// Where a pipe was copied to when the copy is kept (`keepingSpool`); nil otherwise.
    package let spoolPath: String?

    init(description: String, name: String, size: Int64, contentType: String, fileDescriptor: Int32,
                 path: String? = nil, spoolPath: String? = nil) {
        self.description = description; self.name = name; self.size = size; self.contentType = contentType
        self.kind = AttachmentKind(mimeType: contentType); self.fileDescriptor = fileDescriptor
        self.path = path; self.spoolPath = spoolPath
    }

    deinit { close(fileDescriptor) }

    /// The file at `path`, named `name` or its base name. A missing, unreadable,
    /// empty file, a directory or a device is bad input. A FIFO (or `<(cmd)`) is
    /// read like a pipe into a file in `spoolDirectory`, which stays there, mode
    /// 0600, with `keepingSpool` (`spoolPath`; the caller removes it).
    package static func file(at path: String, name: String? = nil, sniffer: ContentSniffer,
                            spoolDirectory: String, keepingSpool: Bool = false) throws(Failure) -> UploadSource {
        // A FIFO is opened like cat(1) does, waiting for its writer; anything else at once.
        var named = stat()
        let isFIFO = stat(path, &named) == 0 && named.st_mode & S_IFMT == S_IFIFO
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (isFIFO ? 0 : O_NONBLOCK))
        guard fd >= 0 else { throw openFailure(path, errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Failure(.invalidInput, "cannot attach \(path): \(String(cString: strerror(code)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let attachmentName = name ?? baseName(path)
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            throw Failure(.invalidInput, "cannot attach \(path): it is a directory", hint: "attach the files in it one by one, or an archive of it")
        case S_IFREG:
            guard info.st_size > 0 else {
                close(fd)
                throw Failure(.invalidInput, "cannot attach \(path): the file is empty")
            }
            var prefix = [UInt8](repeating: 0, count: Int(min(Int64(ContentSniffer.sniffLength), Int64(info.st_size))))
            let count = prefix.withUnsafeMutableBytes { readFully(fd, $0, at: 0) }
            guard count >= 0 else {
                let code = errno
                close(fd)
                throw Failure(.invalidInput, "cannot read \(path): \(String(cString: strerror(code)))")
            }
            let type = prefix.withUnsafeBytes { sniffer.mimeType(of: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            return UploadSource(description: path, name: attachmentName, size: Int64(info.st_size), contentType: type, fileDescriptor: fd,
                                path: path)
        case S_IFIFO, S_IFSOCK:
            defer { close(fd) }
            return try spool(from: fd, description: path, name: attachmentName, sniffer: sniffer, into: spoolDirectory, keep: keepingSpool)
        default:
            // A device (/dev/zero, a disk) has no end worth sending.
            close(fd)
            throw Failure(.invalidInput, "cannot attach \(path): it is a device, not a file")
        }
    }

    /// What `input` (standard input) holds, copied to a nameless file in
    /// `directory` (gone when this source is), or with `keepingSpool` to one that
    /// stays, mode 0600 (`spoolPath`). Empty input is bad input.
    package static func stream(_ input: Int32, description: String = "standard input", name: String, sniffer: ContentSniffer,
                              spoolDirectory directory: String, keepingSpool: Bool = false) throws(Failure) -> UploadSource {
        try spool(from: input, description: description, name: name, sniffer: sniffer, into: directory, keep: keepingSpool)
    }

    /// The upload's file part.
    package var uploadFile: UploadFile {
        UploadFile(fileDescriptor: fileDescriptor, size: size, name: name, contentType: contentType, description: description)
    }

    // MARK: - Pipes

    private static func spool(from input: Int32, description: String, name: String, sniffer: ContentSniffer,
                              into directory: String, keep: Bool) throws(Failure) -> UploadSource {
        var template = Array((keep ? "\(directory)/upload-XXXXXX" : "\(directory)/.chatctl-upload-XXXXXX").utf8CString)
        // mkstemp: mode 0600, a name no one else has.
        let spool = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard spool >= 0 else {
            throw Failure(.failure, "cannot copy \(description) to \(directory): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(spool, F_SETFD, FD_CLOEXEC)
        let spoolPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Nameless from the start unless kept: nothing is left behind, whatever happens next.
        if !keep { _ = unlink(spoolPath) }
        // A copy that failed is not kept.
        func discardSpool() {
            close(spool)
            if keep { _ = unlink(spoolPath) }
        }
        var buffer = [UInt8](repeating: 0, count: ContentSniffer.sniffLength)
        var prefixLength = 0
        var total: Int64 = 0
        var type: String?
        while true {
            // Waits for data or the end, also on a descriptor someone left non-blocking.
            var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, -1) < 0 && errno == EINTR { continue }
            let count = buffer.withUnsafeMutableBytes { bytes in
                read(input, bytes.baseAddress! + prefixLength, bytes.count - prefixLength)
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count < 0 {
                let code = errno
                discardSpool()
                throw Failure(.invalidInput, "cannot read \(description): \(String(cString: strerror(code)))")
            }
            prefixLength += count
            // Judge and write out the first bytes once they fill the buffer or the input ends.
            if prefixLength == buffer.count || count == 0 {
                if type == nil { type = buffer.withUnsafeBytes { sniffer.mimeType(of: UnsafeRawBufferPointer(rebasing: $0[..<prefixLength])) } }
                let written = buffer.withUnsafeBytes { writeFully(spool, UnsafeRawBufferPointer(rebasing: $0[..<prefixLength])) }
                guard written else {
                    let code = errno
                    discardSpool()
                    throw Failure(.failure, "cannot copy \(description) to \(directory): \(String(cString: strerror(code)))")
                }
                total += Int64(prefixLength)
                prefixLength = 0
            }
            if count == 0 { break }
        }
        guard total > 0 else {
            discardSpool()
            throw Failure(.invalidInput, "cannot attach \(description): it is empty")
        }
        return UploadSource(description: description, name: name, size: total,
                            contentType: type ?? ContentSniffer.unknownType, fileDescriptor: spool, spoolPath: keep ? spoolPath : nil)
    }

    // MARK: - Helpers

    private static func openFailure(_ path: String, _ code: Int32) -> Failure {
        switch code {
        case ENOENT: return Failure(.invalidInput, "cannot attach \(path): no such file")
        case EACCES: return Failure(.invalidInput, "cannot attach \(path): permission denied")
        default: return Failure(.invalidInput, "cannot attach \(path): \(String(cString: strerror(code)))")
        }
    }

    static func baseName(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.split(separator: "/").last.map(String.init) ?? String(trimmed)
    }

    /// Reads until `buffer` is full or the file ends; -1 on an error (errno says).
    private static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return -1 }
            if count == 0 { break }
            done += count
        }
        return done
    }

    private static func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }
}

@available(*, unavailable)
extension UploadSource: Sendable {}
