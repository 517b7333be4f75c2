// The one `Range: bytes=…` form a download answers with 206 (RFC 9110 §14.1.2).

import SandboxHTTP

/// Which bytes of a file a GET asks for.
enum ByteRange: Equatable {
    /// No usable Range header: the whole file, 200.
    case whole
    /// Bytes `offset ..< offset + length`, 206.
    case part(offset: Int, length: Int)
    /// A syntactically valid range no byte of the file satisfies: 416.
    case unsatisfiable

    /// `header` as sent (nil: none) against a file of `size` bytes. A header that is not
    /// one `bytes=` range (several ranges, another unit, garbage) is ignored, as RFC 9110
    /// allows, and the whole file is sent.
    static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingSpaces, last = spec[spec.index(after: dash)...].trimmingSpaces
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(s) ?? Int.max   // more digits than fit: past any end
        }
        if first.isEmpty {
            // `bytes=-N`: the last N bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .part(offset: size - length, length: length)
        }
        guard let start = number(first) else { return .whole }
        var end = size - 1
        if !last.isEmpty {
            guard let given = number(last) else { return .whole }
            guard given >= start else { return .whole }   // invalid: ignored
            end = min(given, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(offset: start, length: end - start + 1)
    }
}
