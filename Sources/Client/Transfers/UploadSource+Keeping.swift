#if canImport(Glibc)
import Glibc
#endif
import Diagnostics

/// An upload that may be finished by a later process (the outbox): the bytes are
/// held in the outbox's directory, or the file is known well enough to refuse it
/// once it changed, so that a message is never sent with other bytes than the ones
/// it was queued with (docs/protocol.md §8).
extension UploadSource {
    /// `ioctl(FICLONE)`, `_IOW(0x94, 9, int)`: the macro is not imported into Swift.
    private static let cloneRequest: UInt = 0x4004_9409

    /// Holds on to this source's bytes in `directory` (which must hold the spool
    /// of a kept pipe, `spoolPath`): a pipe's copy as it is; a file as a clone
    /// when the file system makes them, else as a hard link, else by its path
    /// (another file system, or not ours to link); see `KeptUpload.Method`.
    package func keep(in directory: String) throws(Failure) -> KeptUpload {
        if let spoolPath { return try kept(.spool, at: Self.absolute(spoolPath), descriptor: fileDescriptor) }
        guard let path else {
            throw Failure(.failure, "cannot keep \(description) for later: it was copied to a file that is already gone")
        }
        // A clone: a file of our own that shares the blocks until either side changes.
        var template = Array("\(directory)/upload-XXXXXX".utf8CString)
        let clone = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard clone >= 0 else {
            throw Failure(.failure, "cannot keep \(description) in \(directory): \(String(cString: strerror(errno)))")
        }
        let clonePath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(clone) }
        if ioctl(clone, Self.cloneRequest, fileDescriptor) == 0 {
            return try kept(.clone, at: Self.absolute(clonePath), descriptor: clone)
        }
        _ = unlink(clonePath)
        // A hard link to the very file we opened (its name may meanwhile name another).
        if linkat(AT_FDCWD, "/proc/self/fd/\(fileDescriptor)", AT_FDCWD, clonePath, AT_SYMLINK_FOLLOW) == 0 {
            return try kept(.link, at: Self.absolute(clonePath), descriptor: fileDescriptor)
        }
        return try kept(.original, at: Self.absolute(path), descriptor: fileDescriptor)
    }

    private func kept(_ method: KeptUpload.Method, at path: String, descriptor: Int32) throws(Failure) -> KeptUpload {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            if method != .original { _ = unlink(path) }
            throw Failure(.failure, "cannot keep \(description) for later: \(String(cString: strerror(code)))")
        }
        return KeptUpload(method: method, path: path, size: Int64(info.st_size), modifiedAt: KeptUpload.nanoseconds(info.st_mtim),
                          inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    /// The bytes `keep` held on to, opened again: refused, naming `description`
    /// (how the user named the file), when the file is gone or is no longer what it
    /// was (another file under its name, another size or modification time).
    package static func kept(_ kept: KeptUpload, description: String, name: String, contentType: String) throws(Failure) -> UploadSource {
        let fd = open(kept.path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT {
                throw Failure(.failure, "cannot send \(description): it was removed after the message was queued",
                                    hint: "send it again")
            }
            throw Failure(.failure, "cannot send \(description): cannot open \(kept.path): \(String(cString: strerror(code)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let source = UploadSource(description: description, name: name, size: kept.size, contentType: contentType,
                                  fileDescriptor: fd)
        try source.verifyUnchanged(kept)
        return source
    }

    /// Refuses a file that changed since it was kept (checked before an upload, and
    /// after it: an edit while it was sent may have mixed old and new bytes).
    package func verifyUnchanged(_ kept: KeptUpload) throws(Failure) {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else {
            throw Failure(.failure, "cannot send \(description): \(String(cString: strerror(errno)))")
        }
        guard kept.matches(info) else {
            throw Failure(.failure, "cannot send \(description): it changed after the message was queued",
                                hint: "send it again")
        }
    }

    /// `path` from the root: a later process may run elsewhere.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd)
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return base == "/" ? "/" + relative : base + "/" + relative
    }
}
