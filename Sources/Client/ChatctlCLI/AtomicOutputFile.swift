#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Threads

/// `export -o FILE`: written into a temporary file beside FILE, then renamed over it
/// in one step once whole, so FILE is never half written: a failure or an interrupt
/// leaves whatever was there before, and no temporary file. (SIGINT, SIGTERM and SIGHUP,
/// when they would end the process, first remove it; only SIGKILL leaves it behind.)
final class AtomicOutputFile {
    let path: String
    let temporaryPath: String
    private var fileDescriptor: Int32
    private var committed = false

    /// Creates the temporary file (`.NAME.PID.N.tmp` in FILE's directory).
    init(path: String) throws(Failure) {
        self.path = path
        let name = RelativePath.name(of: path)
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "" // with its last "/"
        var number = 0
        while true {
            let candidate = folder + ".\(name).\(getpid()).\(number).tmp"
            // Watched before it exists: a signal between its making and its watch would
            // leave it behind. (One that comes while a name is found taken removes that
            // file: a temporary file of a process that had our pid and is gone.)
            TemporaryFileOnSignal.watch(candidate)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0o666)
            if fd >= 0 {
                temporaryPath = candidate
                fileDescriptor = fd
                return
            }
            let code = errno
            TemporaryFileOnSignal.forget()
            if code == EEXIST && number < 100 { number += 1; continue }
            let kind: Failure.Kind = (code == ENOENT || code == EACCES || code == ENOTDIR || code == EROFS) ? .invalidInput : .failure
            throw Failure(kind, "cannot write \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Appends `text`.
    func write(_ text: String) throws(Failure) {
        var text = text
        let result: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return errno }
                offset += n
            }
            return nil
        }
        if let code = result { throw Failure(.failure, "cannot write \(path): \(String(cString: strerror(code)))") }
    }

    /// Flushed to the disk and renamed over `path`.
    func commit() throws(Failure) {
        if fsync(fileDescriptor) != 0 || close(fileDescriptor) != 0 {
            let code = errno
            fileDescriptor = -1
            throw Failure(.failure, "cannot write \(path): \(String(cString: strerror(code)))")
        }
        fileDescriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            throw Failure(.failure, "cannot rename \(temporaryPath) to \(path): \(String(cString: strerror(errno)))")
        }
        committed = true
        TemporaryFileOnSignal.forget()
    }

    deinit {
        if fileDescriptor >= 0 { close(fileDescriptor) }
        if !committed { unlink(temporaryPath) }
        TemporaryFileOnSignal.forget()
    }
}

/// The one temporary file a signal that ends the process removes first (one export runs
/// per process). The handler does only what a signal handler may: `unlink`, then the
/// signal again at its default, so the process still ends by it (a shell sees 130 for ^C).
private enum TemporaryFileOnSignal {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// A C string made before the handler can run, freed after it no longer can.
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var previous: ProcessSignals.Saved?

    static func watch(_ temporary: String) {
        forget()
        path = strdup(temporary)
        // An ignored signal (nohup's SIGHUP) or one handled already stays as it is.
        previous = ProcessSignals.set(.handled({ number in
            if let path = TemporaryFileOnSignal.path { unlink(path) }
            ProcessSignals.endBy(number)
        }, restarting: false), for: signals, onlyWhereDefault: true)
    }

    static func forget() {
        previous?.restore()
        previous = nil
        free(path)
        path = nil
    }
}

@available(*, unavailable)
extension AtomicOutputFile: Sendable {}
