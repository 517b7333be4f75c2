// The server's certificate and key, and the OpenSSL context every TLS stream of it shares.
internal import CEvent
import SandboxLogging

/// The server's TLS certificate and key (self-signed at start-up unless given).
/// Owns the `X509`, `EVP_PKEY` and `SSL_CTX`; hands out one `SSL` per STARTTLS.
package final class TLSIdentity {
    private let certificate: OpaquePointer      // X509*
    private let key: OpaquePointer              // EVP_PKEY*
    private let context: OpaquePointer          // SSL_CTX*
    /// PEM of the certificate (and chain, when loaded): what clients should trust.
    package let certificatePEM: String

    private init(certificate: OpaquePointer, key: OpaquePointer, chain: [OpaquePointer]) throws {
        self.certificate = certificate
        self.key = key
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            X509_free(certificate); EVP_PKEY_free(key); chain.forEach { X509_free($0) }
            throw SandboxFailure.openSSL("SSL_CTX_new failed")
        }
        self.context = context
        var pem = try Self.pem(of: certificate)
        for extra in chain { pem += (try? Self.pem(of: extra)) ?? "" }
        certificatePEM = pem
        // SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // SSL_CTX_set_mode (a macro too): an idle stream gives its ~34 KB of record buffers
        // back; with a thousand mostly idle streams that is most of their memory.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_RELEASE_BUFFERS), nil)
        guard SSL_CTX_use_certificate(context, certificate) == 1,
              SSL_CTX_use_PrivateKey(context, key) == 1,
              SSL_CTX_check_private_key(context) == 1 else {
            chain.forEach { X509_free($0) }
            throw SandboxFailure.openSSL("the TLS certificate and key do not match")
        }
        // SSL_CTX_add_extra_chain_cert (a macro) takes ownership of each.
        for extra in chain where SSL_CTX_ctrl(context, SSL_CTRL_EXTRA_CHAIN_CERT, 0, UnsafeMutableRawPointer(extra)) != 1 {
            X509_free(extra)
        }
    }

    deinit {
        SSL_CTX_free(context)
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    /// A new server-side `SSL*` for one connection (`SocketConnection` hands it to
    /// `bufferevent_openssl_filter_new`, which frees it).
    func makeSSL() -> OpaquePointer? { SSL_new(context) }

    /// An EC P-256 key and a self-signed certificate naming `dnsNames` and
    /// `ipAddresses` as subject alternative names, valid from an hour ago for a year.
    package static func selfSigned(dnsNames: [String], ipAddresses: [String]) throws -> TLSIdentity {
        guard let keyContext = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw SandboxFailure.openSSL("EVP_PKEY_CTX_new_id failed") }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(keyContext) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(keyContext, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(keyContext, &generated) == 1, let key = generated else {
            throw SandboxFailure.openSSL("generating the TLS key failed")
        }
        guard let cert = X509_new() else { EVP_PKEY_free(key); throw SandboxFailure.openSSL("X509_new failed") }
        func fail(_ what: String) -> SandboxFailure { X509_free(cert); EVP_PKEY_free(key); return .openSSL(what) }

        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw fail("no random bytes for the certificate's serial") }
        serial[0] &= 0x7f  // positive
        let serialNumber = BN_bin2bn(serial, Int32(serial.count), nil)
        defer { BN_free(serialNumber) }
        let names = dnsNames.filter { !$0.isEmpty }
        let commonName = names.first ?? ipAddresses.first ?? "chatctl-sandbox"
        guard X509_set_version(cert, 2) == 1,
              BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(cert)) != nil,
              X509_gmtime_adj(X509_getm_notBefore(cert), -3600) != nil,
              X509_gmtime_adj(X509_getm_notAfter(cert), 365 * 24 * 3600) != nil,
              X509_set_pubkey(cert, key) == 1,
              let subject = X509_get_subject_name(cert),
              X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_ASC, "chatctl-sandbox", -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(cert, subject) == 1 else {
            throw fail("building the self-signed certificate failed")
        }
        // No basicConstraints/keyUsage: a plain end-entity certificate that
        // OpenSSL, Go and rustls all accept as its own trust anchor.
        var extensions: [(Int32, String)] = [(NID_ext_key_usage, "serverAuth")]
        let alternativeNames = names.map { "DNS:\($0)" } + ipAddresses.filter { !$0.isEmpty }.map { "IP:\($0)" }
        if !alternativeNames.isEmpty { extensions.append((NID_subject_alt_name, alternativeNames.joined(separator: ","))) }
        var v3 = X509V3_CTX()
        X509V3_set_ctx(&v3, cert, cert, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &v3, nid, value) else { throw fail("bad certificate extension \(value)") }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(cert, ext, -1) == 1 else { throw fail("X509_add_ext failed") }
        }
        guard X509_sign(cert, key, EVP_sha256()) > 0 else { throw fail("signing the certificate failed") }
        return try TLSIdentity(certificate: cert, key: key, chain: [])
    }

    /// PEM of the private key (PKCS#8), to keep a generated identity across restarts.
    package func privateKeyPEM() throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw SandboxFailure.openSSL("BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw SandboxFailure.openSSL("PEM_write_bio_PrivateKey failed")
        }
        return Self.drain(bio)
    }

    /// Whether the certificate is still valid `seconds` from now.
    package func isValid(forAnother seconds: Int) -> Bool {
        guard let notAfter = X509_get0_notAfter(certificate) else { return false }
        var days: Int32 = 0, rest: Int32 = 0
        guard ASN1_TIME_diff(&days, &rest, nil, notAfter) == 1 else { return false }
        return Int(days) * 86_400 + Int(rest) > seconds
    }

    /// An identity kept as PEM text (what `privateKeyPEM` and `certificatePEM` gave).
    package static func load(certificatePEM: String, keyPEM: String) throws -> TLSIdentity {
        guard let cert = try readingPEM(certificatePEM, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw SandboxFailure.openSSL("no PEM certificate kept")
        }
        guard let key = try readingPEM(keyPEM, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            X509_free(cert)
            throw SandboxFailure.openSSL("no PEM private key kept")
        }
        return try TLSIdentity(certificate: cert, key: key, chain: [])
    }

    /// Reads PEM text through a memory BIO. BIO_new_mem_buf keeps the pointer, not a
    /// copy: the bytes must outlive the BIO, so both live inside one withUnsafeBytes.
    private static func readingPEM<T>(_ pem: String, _ read: (OpaquePointer) -> T?) throws -> T? {
        try Array(pem.utf8).withUnsafeBytes { bytes throws -> T? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else {
                throw SandboxFailure.openSSL("BIO_new_mem_buf failed")
            }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    /// A PEM certificate (optionally followed by its chain) and a PEM private key.
    package static func load(certificatePath: String, keyPath: String) throws -> TLSIdentity {
        guard let certBIO = BIO_new_file(certificatePath, "r") else { throw SandboxFailure.openSSL("cannot open TLS certificate \(certificatePath)") }
        defer { BIO_free(certBIO) }
        guard let cert = PEM_read_bio_X509(certBIO, nil, nil, nil) else { throw SandboxFailure.openSSL("no PEM certificate in \(certificatePath)") }
        var chain: [OpaquePointer] = []
        while let extra = PEM_read_bio_X509(certBIO, nil, nil, nil) { chain.append(extra) }
        ERR_clear_error()  // the loop ends on a "no start line" error
        guard let keyBIO = BIO_new_file(keyPath, "r") else {
            X509_free(cert); chain.forEach { X509_free($0) }
            throw SandboxFailure.openSSL("cannot open TLS key \(keyPath)")
        }
        defer { BIO_free(keyBIO) }
        guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, nil, nil) else {
            X509_free(cert); chain.forEach { X509_free($0) }
            throw SandboxFailure.openSSL("no PEM private key in \(keyPath)")
        }
        return try TLSIdentity(certificate: cert, key: key, chain: chain)
    }

    private static func pem(of certificate: OpaquePointer) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw SandboxFailure.openSSL("BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_X509(bio, certificate) == 1 else { throw SandboxFailure.openSSL("PEM_write_bio_X509 failed") }
        return drain(bio)
    }

    private static func drain(_ bio: OpaquePointer) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = BIO_read(bio, &buffer, Int32(buffer.count))
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<Int(n)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@available(*, unavailable) extension TLSIdentity: Sendable {}
