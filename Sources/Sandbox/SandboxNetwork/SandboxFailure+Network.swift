// How the network layer's failures read: OpenSSL's own reasons, and a port that is taken.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif
import SandboxLogging

extension SandboxFailure {
    /// `what` failed in OpenSSL, with its error queue appended (and cleared) so a bad key file says why.
    static func openSSL(_ what: String) -> SandboxFailure {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return SandboxFailure(reasons.isEmpty ? what : "\(what): \(reasons.joined(separator: "; "))")
    }

    /// `service` could not listen on `host`:`port` for the errno `code`; a port another program
    /// holds says what to do about it.
    static func cannotListen(for service: String, host: String, port: Int, code: Int32) -> SandboxFailure {
        SandboxFailure("cannot listen for \(service) on \(host):\(port): \(String(cString: strerror(code)))",
                       hint: code == EADDRINUSE ? "another program listens there: choose another port, or 0 for a free one" : nil)
    }
}
