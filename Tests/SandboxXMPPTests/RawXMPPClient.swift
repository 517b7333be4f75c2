// A client for the tests that speaks XMPP's bytes itself, TLS through OpenSSL's own client
// calls (CEvent's headers), so that it checks the sandbox's TLS rather than sharing it.
import CEvent
import Foundation
import TestSupport

/// A blocking TCP client that speaks raw XML (optionally through OpenSSL after STARTTLS).
final class RawXMPPClient {
    let fd: Int32
    private(set) var received = ""
    private var ssl: OpaquePointer?
    private var sslContext: OpaquePointer?
    private(set) var closedByServer = false
    /// The server ended TLS with close_notify (not only by closing the socket).
    private(set) var tlsCloseNotified = false

    /// Connects to `host`:`port` (IPv4), from `source` when given (another local address, to play
    /// another client machine).
    init(port: Int, host: String = "127.0.0.1", source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        func address(_ host: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            return address
        }
        func call(_ host: String, _ port: Int, _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32) -> Int32 {
            var target = address(host, port)
            return withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        if let source, call(source, 0, bind) != 0 { close(fd); throw TestFailure("bind \(source) failed: \(errno)") }
        if call(host, port, connect) != 0 { close(fd); throw TestFailure("connect failed: \(errno)") }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        if let sslContext { SSL_CTX_free(sslContext) }
        close(fd)
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n: Int
            if let ssl {
                n = Int(bytes.withUnsafeMutableBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32($0.count - offset)) })
            } else {
                n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until `predicate` holds for everything received so far, the server
    /// closes, or `timeout` passes. Returns whether the predicate held.
    @discardableResult
    func read(until predicate: (String) -> Bool, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(received) {
            if closedByServer { return false }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            if ssl == nil || SSL_pending(ssl) == 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, Int32(min(remaining, 0.1) * 1000)) <= 0 { continue }
            }
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n: Int
            if let ssl {
                n = Int(SSL_read(ssl, &buffer, Int32(buffer.count)))
            } else {
                n = recv(fd, &buffer, buffer.count, 0)
            }
            if n <= 0 {
                if let ssl, SSL_get_error(ssl, Int32(n)) == SSL_ERROR_ZERO_RETURN { tlsCloseNotified = true }
                closedByServer = true
                return predicate(received)
            }
            received += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }

    func read(untilContains needle: String, timeout: Double = 5) -> Bool {
        read(until: { $0.contains(needle) }, timeout: timeout)
    }

    /// Waits until the server closes the connection.
    func waitForClose(timeout: Double = 5) -> Bool {
        read(until: { _ in false }, timeout: timeout)
        return closedByServer
    }

    /// Forgets what was read so far (before a stream restart).
    func clear() { received = "" }

    /// Opens the stream, logs in with SASL PLAIN as `authcid` and opens the stream again:
    /// ready to bind. False (with what was read kept) when a step is not answered.
    func authenticate(as authcid: String, password: String) -> Bool {
        send(XMPPTestConstants.header)
        guard read(untilContains: "</stream:features>") else { return false }
        send(XMPPTestConstants.plain(authcid, password))
        guard read(untilContains: "<success") else { return false }
        clear()
        send(XMPPTestConstants.header)
        guard read(untilContains: "</stream:features>") else { return false }
        clear()
        return true
    }

    /// TLS handshake over the socket, trusting only `caPEM` and checking `host`.
    func startTLS(caPEM: String, host: String) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TestFailure("SSL_CTX_new") }
        sslContext = context
        // BIO_new_mem_buf keeps the pointer: the bytes must outlive the read (make
        // sanitize found a String's temporary C copy freed before PEM_read_bio_X509).
        let pemBytes = Array(caPEM.utf8)
        let read: OpaquePointer? = pemBytes.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let ca = read else { throw TestFailure("bad CA PEM") }
        defer { X509_free(ca) }
        X509_STORE_add_cert(SSL_CTX_get_cert_store(context), ca)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else { throw TestFailure("SSL_new") }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        SSL_set1_host(ssl, host)
        guard SSL_connect(ssl) == 1 else {
            throw TestFailure("TLS handshake failed: verify result \(SSL_get_verify_result(ssl))")
        }
    }
}
