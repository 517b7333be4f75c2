internal import CEvent

/// What went wrong in the network layer: a listener, an address, the loop, TLS.
package struct NetworkError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }

    /// Appends OpenSSL's error queue (and clears it) so a bad key file says why.
    static func openSSL(_ what: String) -> NetworkError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return NetworkError(reasons.isEmpty ? what : "\(what): \(reasons.joined(separator: "; "))")
    }
}
