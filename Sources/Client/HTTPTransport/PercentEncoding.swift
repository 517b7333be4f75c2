/// Percent-encoding (RFC 3986): every byte outside the set kept written `%XX` (upper-case
/// hex), UTF-8 first. One encoder for form bodies, query strings, a path's segments and the
/// links of an export, each keeping the set it needs.
package enum PercentEncoding {
    /// The bytes a place keeps as they are.
    package struct Kept: Sendable {
        fileprivate let bytes: [Bool]

        private init(_ extra: String) {
            var bytes = [Bool](repeating: false, count: 256)
            for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { bytes[Int(byte)] = true }
            for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { bytes[Int(byte)] = true }
            for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { bytes[Int(byte)] = true }
            for byte in "-._~\(extra)".utf8 { bytes[Int(byte)] = true }
            self.bytes = bytes
        }

        /// RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`): a form's names and
        /// values, a query's, one path segment, so `&`, `=`, `+`, `[`, `/` and space never
        /// reach the server unescaped.
        package static let unreserved = Kept("")
        /// The unreserved characters and `/`: a relative path whose segments stay apart.
        package static let pathCharacters = Kept("/")
    }

    /// `text` with every byte outside `kept` written `%XX`.
    package static func encode(_ text: String, keeping kept: Kept) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if kept.bytes[Int(byte)] {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
