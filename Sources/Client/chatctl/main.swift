import ChatctlCLI
#if canImport(Glibc)
import Glibc
#endif
import Threads

// SIGPIPE and SIGXFSZ ignored, every signal unblocked (ProcessSignals says why).
ProcessSignals.startProgram()
ProcessSignals.unblockAll()
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
