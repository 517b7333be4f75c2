/// Where input meant as a message stops being text: a NUL byte, or bytes that are not
/// UTF-8. Such input is binary data (`head -c 1M /dev/urandom`), which would otherwise
/// go out as a run of NULs or replacement characters, split over many messages; it is
/// refused before anything is queued, as git and ripgrep tell binary data from text,
/// and `send --attach -` sends it as a file.
package struct UnreadableText: Equatable, Sendable {
    package enum Reason: Sendable {
        case nul
        case notUTF8
    }

    package let reason: Reason
    /// The first offending byte, counted from 1 over the whole input.
    package let byte: Int
    /// Its line, counted from 1.
    package let line: Int

    package init(reason: Reason, byte: Int, line: Int) {
        self.reason = reason; self.byte = byte; self.line = line
    }

    /// The first place `bytes` is not text, or nil when all of it is; `bytesBefore` and
    /// `linesBefore` are what came before them (a line of a stream).
    package static func find(in bytes: some Collection<UInt8>, bytesBefore: Int = 0, linesBefore: Int = 0) -> UnreadableText? {
        var offset = 0, line = linesBefore + 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" { return UnreadableText(reason: .nul, byte: bytesBefore + offset + 1, line: line) }
                if scalar == "\n" { line += 1 }
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                // The decoder stops at the first byte that does not continue a well-formed sequence.
                return UnreadableText(reason: .notUTF8, byte: bytesBefore + offset + 1, line: line)
            }
        }
    }

    /// "a NUL byte at byte 1, line 1", "a byte that is not UTF-8 at byte 9, line 2"
    package var place: String {
        (reason == .nul ? "a NUL byte" : "a byte that is not UTF-8") + " at byte \(byte), line \(line)"
    }
}
