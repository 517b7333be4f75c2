import ChatctlCLI
#if canImport(Glibc)
import Glibc
#endif

// A closed pipe on stdout (`chatctl … | head`) must not kill us mid-write.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (ulimit -f) reached while downloading is an error to report
// (EFBIG, the .part kept), not a reason to die.
signal(SIGXFSZ, SIG_IGN)
// A parent may start us from a thread that blocks signals (libdispatch workers
// do, and a blocked mask is inherited): ^C and SIGTERM must still stop us.
var noSignals = sigset_t()
sigemptyset(&noSignals)
pthread_sigmask(SIG_SETMASK, &noSignals, nil)
/// The process environment as a dictionary; `Chatctl.run` asks for it only when a command
/// runs. Split at the first `=` on the bytes (a search by Character cost 9,000
/// instructions a variable; invalid UTF-8 is repaired, as `String(cString:)` did).
func readEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
        if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
            environment[String(decoding: UnsafeBufferPointer(rebasing: bytes[..<eq]), as: UTF8.self)] =
                String(decoding: UnsafeBufferPointer(rebasing: bytes[(eq + 1)...]), as: UTF8.self)
        }
        entry += 1
    }
    return environment
}
exit(Chatctl.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: readEnvironment(), io: StandardIO()))
