internal import CCurlShim

/// `curl_global_init` must run once before the first easy handle; a lazy global
/// runs it on first use only, so `chatctl --version` never pays for it.
private let curlGloballyInitialized: Bool = ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// libcurl easy-handle client (one handle, reused so connections are kept alive).
///
/// Not thread-safe: use one instance per thread (the handle is confined to its owner).
/// The only file that touches `CURL*` and `curl_slist`.
public final class CurlHTTPClient: HTTPTransporting {
    private let options: HTTPClientOptions
    private let handle: UnsafeMutableRawPointer
    /// The header list of the current request; curl reads it during perform, so it
    /// lives until the next request replaces it or the handle is cleaned up.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// CURLOPT_ERRORBUFFER: curl writes a human-readable reason here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let errorBufferSize = Int(CURL_ERROR_SIZE)

    // Per-request state written by the C callbacks.
    fileprivate var responseBody: [UInt8] = []
    fileprivate var responseHeaders: [HTTPHeader] = []

    public init(options: HTTPClientOptions) throws(HTTPError) {
        guard curlGloballyInitialized else {
            throw HTTPError(kind: .other, url: "", detail: "libcurl could not be initialised: \(String(cString: ccurl_load_error()))")
        }
        guard let handle = ccurl_easy_init() else {
            throw HTTPError(kind: .other, url: "", detail: "libcurl could not create a handle")
        }
        self.options = options
        self.handle = handle
        self.errorBuffer = .allocate(capacity: errorBufferSize)
        self.errorBuffer.initialize(repeating: 0, count: errorBufferSize)
    }

    deinit {
        ccurl_easy_cleanup(handle)
        if let headerList { ccurl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    public func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let loggedURL = SecretRedactor.url(request.url)
        let errorURL = SecretRedactor.urlWithoutQuery(request.url)
        let log = options.verboseLog
        log?("> \(request.method) \(loggedURL)")
        if let log {
            for header in request.headers { let h = SecretRedactor.header(header); log("> \(h.name): \(h.value)") }
            if !request.body.isEmpty { log("> (\(request.body.count) bytes of body not shown)") }
        }

        // Reset clears every option of the previous request but keeps the
        // connection cache, so keep-alive still works.
        ccurl_easy_reset(handle)
        responseBody = []
        responseHeaders = []
        errorBuffer[0] = 0
        configure(for: request)

        let code = ccurl_easy_perform(handle)
        let elapsedMS = (getDouble(CURLINFO_TOTAL_TIME) ?? 0) * 1000
        guard code == CURLE_OK else {
            let error = HTTPError(kind: Self.kind(of: code), url: errorURL, detail: reason(for: code))
            log?("! \(error.detail) after \(Self.formatMilliseconds(elapsedMS))")
            throw error
        }
        var status = 0
        if let responseCode = getLong(CURLINFO_RESPONSE_CODE) { status = responseCode }
        let response = HTTPResponse(status: status, headers: responseHeaders, body: responseBody)
        responseBody = []
        responseHeaders = []
        if let log {
            log("< \(status) in \(Self.formatMilliseconds(elapsedMS))")
            for header in response.headers { let h = SecretRedactor.header(header); log("< \(h.name): \(h.value)") }
            if !response.body.isEmpty { log("< (\(response.body.count) bytes of body not shown)") }
        }
        return response
    }

    // MARK: - Options

    private func configure(for request: HTTPRequest) {
        let selfPointer = Unmanaged.passUnretained(self).toOpaque()
        setLong(CURLOPT_NOSIGNAL, 1)
        setString(CURLOPT_URL, request.url)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        setLong(CURLOPT_FOLLOWLOCATION, 0)
        setLong(CURLOPT_SSL_VERIFYPEER, 1)
        setLong(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = options.caFile { setString(CURLOPT_CAINFO, caFile) }
        setLong(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(options.connectTimeout * 1000)))
        // 0 means "no limit" to curl, which is what a non-positive timeout asks for.
        setLong(CURLOPT_TIMEOUT_MS, request.timeout > 0 ? max(1, Int(request.timeout * 1000)) : 0)
        setString(CURLOPT_USERAGENT, options.userAgent)
        check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")

        check(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            let client = Unmanaged<CurlHTTPClient>.fromOpaque(userdata!).takeUnretainedValue()
            let length = size * count
            if let data, length > 0 {
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    client.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                }
            }
            return length
        }, "CURLOPT_WRITEFUNCTION")
        check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, selfPointer), "CURLOPT_WRITEDATA")
        check(ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            let client = Unmanaged<CurlHTTPClient>.fromOpaque(userdata!).takeUnretainedValue()
            let length = size * count
            if let data, length > 0 {
                let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                client.receivedHeaderLine(line)
            }
            return length
        }, "CURLOPT_HEADERFUNCTION")
        check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, selfPointer), "CURLOPT_HEADERDATA")

        let method = request.method.uppercased()
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
            // COPYPOSTFIELDS copies the bytes, so the Swift array need not outlive this call.
            check(ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)), "CURLOPT_POSTFIELDSIZE_LARGE")
            if request.body.isEmpty {
                setString(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                request.body.withUnsafeBytes { bytes in
                    check(ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)), "CURLOPT_COPYPOSTFIELDS")
                }
            }
            if method != "POST" { setString(CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "HEAD" {
            setLong(CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            setString(CURLOPT_CUSTOMREQUEST, method)
        }

        var list: UnsafeMutablePointer<curl_slist>? = nil
        for header in request.headers {
            // "Name;" is curl's spelling of a header with an empty value.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            list = ccurl_slist_append(list, line)
        }
        // No "Expect: 100-continue" round trip for larger bodies.
        list = ccurl_slist_append(list, "Expect:")
        if let old = headerList { ccurl_slist_free_all(old) }
        headerList = list
        check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, list), "CURLOPT_HTTPHEADER")
    }

    fileprivate func receivedHeaderLine(_ raw: String) {
        let line = raw.trimmingScalars(" \r\n\t")
        if line.hasPrefix("HTTP/") {
            // A new status line (after "100 Continue", or a proxy's answer) starts a new header block.
            responseHeaders = []
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingScalars(" \t")
        let value = String(line[line.index(after: colon)...]).trimmingScalars(" \t")
        responseHeaders.append(HTTPHeader(name, value))
    }

    // MARK: - Errors

    private func reason(for code: CURLcode) -> String {
        let buffered = String(cString: errorBuffer)
        if !buffered.isEmpty { return buffered }
        return String(cString: ccurl_easy_strerror(code))
    }

    private static func kind(of code: CURLcode) -> HTTPError.Kind {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotConnect
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tls
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL
        default:
            return .other
        }
    }

    // MARK: - Wrappers of the shim (a failing constant option is a programmer error)

    private func check(_ code: CURLcode, _ option: StaticString) {
        if code != CURLE_OK {
            preconditionFailure("curl_easy_setopt(\(option)) failed: \(String(cString: ccurl_easy_strerror(code)))")
        }
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
        let code = ccurl_setopt_long(handle, option, value)
        if code != CURLE_OK { preconditionFailure("curl_easy_setopt(\(option.rawValue)) failed: \(String(cString: ccurl_easy_strerror(code)))") }
    }

    /// curl copies string options (since 7.17), so the Swift string need not outlive the call.
    private func setString(_ option: CURLoption, _ value: String) {
        let code = ccurl_setopt_string(handle, option, value)
        if code != CURLE_OK { preconditionFailure("curl_easy_setopt(\(option.rawValue)) failed: \(String(cString: ccurl_easy_strerror(code)))") }
    }

    private func getLong(_ info: CURLINFO) -> Int? {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    private func getDouble(_ info: CURLINFO) -> Double? {
        var value = 0.0
        return ccurl_getinfo_double(handle, info, &value) == CURLE_OK ? value : nil
    }

    static func formatMilliseconds(_ ms: Double) -> String {
        let tenths = Int((ms * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}

@available(*, unavailable)
extension CurlHTTPClient: Sendable {}

extension String {
    /// Trims any of the given ASCII characters from both ends (FoundationEssentials
    /// has no CharacterSet trimming). Works on scalars: "\r\n" is one Character.
    func trimmingScalars(_ set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        var slice = self.unicodeScalars[...]
        while let first = slice.first, scalars.contains(first) { slice.removeFirst() }
        while let last = slice.last, scalars.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
