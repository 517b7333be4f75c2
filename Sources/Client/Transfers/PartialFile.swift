#if canImport(Glibc)
import Glibc
#endif
import Diagnostics

/// A download in progress: `{path}.part`, opened for appending and locked (two
/// chatctl downloading to one file would mix their bytes). What it holds survives
/// an interruption and is where the next attempt resumes. `finish` gives it its
/// final name in one rename.
final class PartialFile {
    let path: String
    let partPath: String
    let fileDescriptor: Int32

    /// `mode`: the file's permissions from the start (0o600 for what is private: an avatar
    /// in the state directory); the umask applies as to any new file.
    init(finalPath path: String, mode: mode_t = 0o666) throws(Failure) {
        self.path = path
        partPath = path + ".part"
        // Read and write: a resume reads its last bytes back to check them.
        let fd = open(partPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, mode)
        guard fd >= 0 else {
            let code = errno
            let kind: Failure.Kind = (code == ENOENT || code == EACCES || code == EISDIR || code == ENOTDIR) ? .invalidInput : .failure
            throw Failure(kind, "cannot create \(partPath): \(String(cString: strerror(code)))")
        }
        // A part left by an earlier run keeps its mode unless told: private stays private.
        if mode != 0o666 { _ = fchmod(fd, mode) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw Failure(.temporary, "another download is writing \(partPath)", hint: "wait for it to end")
        }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// Bytes already there; the descriptor is left at the end, where the next byte goes.
    func resumeOffset() throws(Failure) -> Int64 {
        let end = lseek(fileDescriptor, 0, SEEK_END)
        guard end >= 0 else { throw Failure(.failure, "cannot use \(partPath): \(String(cString: strerror(errno)))") }
        return Int64(end)
    }

    /// The whole file takes its name: replacing one already there only when `overwrite`
    /// (else a file that appeared meanwhile stays, and this one stays `.part`).
    func finish(overwrite: Bool) throws(Failure) {
        if overwrite {
            guard rename(partPath, path) == 0 else { throw failure("cannot rename \(partPath) to \(path)") }
            return
        }
        // link() refuses to replace: the one-step "rename unless it exists".
        if link(partPath, path) == 0 {
            _ = unlink(partPath)
            return
        }
        switch errno {
        case EEXIST:
            throw Failure(.invalidInput, "\(path) appeared while downloading; the download is in \(partPath)",
                                hint: "give --force to replace it")
        case EPERM, EXDEV, ENOTSUP, EMLINK:
            // A file system without hard links: check, then rename.
            guard access(path, F_OK) != 0 else {
                throw Failure(.invalidInput, "\(path) appeared while downloading; the download is in \(partPath)",
                                    hint: "give --force to replace it")
            }
            guard rename(partPath, path) == 0 else { throw failure("cannot rename \(partPath) to \(path)") }
        default:
            throw failure("cannot rename \(partPath) to \(path)")
        }
    }

    private func failure(_ what: String) -> Failure {
        Failure(.failure, "\(what): \(String(cString: strerror(errno)))")
    }
}

@available(*, unavailable)
extension PartialFile: Sendable {}
