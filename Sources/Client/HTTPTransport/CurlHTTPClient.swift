internal import CCurlShim
#if canImport(Glibc)
import Glibc
#endif

/// `curl_global_init` must run once before the first easy handle; a lazy global
/// runs it on first use only, so `chatctl --version` never pays for it.
private let curlGloballyInitialized: Bool = ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// libcurl easy-handle client (one handle, reused so connections are kept alive):
/// JSON exchanges in memory (`perform`), files streamed (`upload`, `download`).
///
/// Not thread-safe: use one instance per thread (the handle is confined to its owner).
/// The only file that touches `CURL*` and `curl_slist`.
package final class CurlHTTPClient: HTTPTransporting, HTTPFileTransferring {
    private let options: HTTPClientOptions
    private let handle: UnsafeMutableRawPointer
    /// The header list of the current request; curl reads it during perform, so it
    /// lives until the next request replaces it or the handle is cleaned up.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// CURLOPT_ERRORBUFFER: curl writes a human-readable reason here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let errorBufferSize = Int(CURL_ERROR_SIZE)
    /// A transfer's answer body beyond this is dropped (an error page, never a file).
    private static let answerLimit = 64 * 1024
    /// CURLOPT_BUFFERSIZE of downloads.
    private static let downloadBufferSize = 256 * 1024

    // Per-request state written by the C callbacks.
    fileprivate var responseBody: [UInt8] = []
    fileprivate var responseHeaders: [HTTPHeader] = []
    /// The status of the header block being read (0 until a status line came).
    fileprivate var currentStatus = 0
    /// Nil: keep the whole body (JSON exchanges); else at most this many bytes.
    fileprivate var bodyLimit: Int?
    /// A body past this many bytes ends the transfer (a JSON exchange's answer,
    /// whose size a hostile or broken server might make unbounded).
    fileprivate var refuseBeyond: Int?
    /// Set when `refuseBeyond` ended a transfer.
    fileprivate var refusedOversized = false
    /// Where a 200/206 body goes during a download.
    fileprivate var fileSink: FileSinkState?
    /// Called from CURLOPT_XFERINFOFUNCTION with (dltotal, dlnow, ultotal, ulnow).
    fileprivate var progressTick: ((Int64, Int64, Int64, Int64) -> Void)?

    package init(options: HTTPClientOptions) throws(HTTPError) {
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

    // MARK: - Requests

    package func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let log = options.verboseLog
        logRequest(request.method, request.url, request.headers)
        if let log, !request.body.isEmpty { log("> (\(request.body.count) bytes of body not shown)") }

        begin(url: request.url, headers: request.headers)
        // 0 means "no limit" to curl, which is what a non-positive timeout asks for.
        setLong(CURLOPT_TIMEOUT_MS, request.timeout > 0 ? max(1, Int(request.timeout * 1000)) : 0)
        // A larger answer is refused, not buffered: curl checks a Content-Length up
        // front (CURLE_FILESIZE_EXCEEDED), the write callback counts the rest.
        refuseBeyond = request.maxResponseBytes
        check(ccurl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes)), "CURLOPT_MAXFILESIZE_LARGE")
        let method = request.method
        if !request.body.isEmpty || method.carriesBody {
            // COPYPOSTFIELDS copies the bytes, so the Swift array need not outlive this call.
            check(ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)), "CURLOPT_POSTFIELDSIZE_LARGE")
            if request.body.isEmpty {
                setString(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                request.body.withUnsafeBytes { bytes in
                    check(ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)), "CURLOPT_COPYPOSTFIELDS")
                }
            }
            if method != .post { setString(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        } else if method == .head {
            setLong(CURLOPT_NOBODY, 1)
        } else if method != .get {
            setString(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
        return try finish(url: request.url, code: ccurl_easy_perform(handle))
    }

    package func upload(_ request: MultipartUploadRequest, progress: (TransferProgress) -> Void) throws(HTTPError) -> HTTPResponse {
        let file = request.file
        logRequest(.post, request.url, request.headers)
        options.verboseLog?("> (multipart/form-data: \(request.fields.count) fields, then \(request.fileField) \(file.name), \(file.size) bytes of \(file.contentType))")

        begin(url: request.url, headers: request.headers)
        limitStalls(request.stallTimeout)
        bodyLimit = Self.answerLimit
        let reader = UploadFileReader(file: file)
        guard let form = CurlMultipartForm(easyHandle: handle, fields: request.fields, fileField: request.fileField, reader: reader) else {
            throw HTTPError(kind: .other, url: SecretRedactor.urlWithoutQuery(request.url), detail: "libcurl could not build the form")
        }
        check(ccurl_setopt_pointer(handle, CURLOPT_MIMEPOST, UnsafeMutableRawPointer(form.mime)), "CURLOPT_MIMEPOST")
        let code = withoutActuallyEscaping(progress) { progress in
            progressTick = { _, _, _, _ in progress(TransferProgress(bytes: reader.position, total: file.size)) }
            defer { progressTick = nil }
            return ccurl_easy_perform(handle)
        }
        // The form goes before the handle could use it again.
        check(ccurl_setopt_pointer(handle, CURLOPT_MIMEPOST, nil), "CURLOPT_MIMEPOST")
        if code != CURLE_OK, let failure = reader.failure {
            throw failed(.localFile, request.url, failure)
        }
        let response = try finish(url: request.url, code: code)
        withExtendedLifetime(form) {}
        return response
    }

    package func download(_ request: DownloadRequest, into sink: DownloadSink,
                         progress: (TransferProgress) -> Void) throws(HTTPError) -> DownloadResult {
        var resumeFrom = max(0, request.resumeFrom)
        while true {
            // Asked again, the last bytes the sink holds must come back the same:
            // else its bytes are of another file, and it starts over.
            let start = max(0, resumeFrom - Int64(max(0, request.verifiedOverlap)))
            logRequest(.get, request.url, request.headers)
            if resumeFrom > 0 { options.verboseLog?("> (resuming after \(resumeFrom) bytes, checking the \(resumeFrom - start) before)") }
            begin(url: request.url, headers: request.headers)
            limitStalls(request.stallTimeout)
            bodyLimit = Self.answerLimit
            // Fewer, larger writes than curl's 16 KiB default.
            setLong(CURLOPT_BUFFERSIZE, Self.downloadBufferSize)
            if start > 0 { check(ccurl_setopt_off_t(handle, CURLOPT_RESUME_FROM_LARGE, curl_off_t(start)), "CURLOPT_RESUME_FROM_LARGE") }
            let state = FileSinkState(sink: sink, verifying: resumeFrom - start, from: start)
            fileSink = state
            let code = withoutActuallyEscaping(progress) { progress in
                progressTick = { [unowned self] total, now, _, _ in
                    guard self.currentStatus == 200 || self.currentStatus == 206 else { return }
                    progress(TransferProgress(bytes: max(resumeFrom, start + now), total: total > 0 ? start + total : nil))
                }
                defer { progressTick = nil; fileSink = nil }
                return ccurl_easy_perform(handle)
            }
            if let failure = state.failure { throw failed(.localFile, request.url, failure) }
            // The server ignored the range (answered 200), or answered one that does not
            // start where asked, or the bytes before the end differ: begin again from nothing.
            if (code == CURLE_RANGE_ERROR && start > 0) || state.differs {
                try restart(sink, url: request.url, because: state.differs ? "the bytes already in \(sink.description) are of another file"
                                                                                 : "the server did not resume where the file ends")
                resumeFrom = 0
                continue
            }
            let response = try finish(url: request.url, code: code)
            switch response.status {
            case 200, 206:
                let size = resumeFrom + state.written
                if let expected = Self.expectedSize(response, resumeFrom: start), expected != size {
                    throw failed(.other, request.url, "the transfer ended after \(size) of \(expected) bytes")
                }
                return DownloadResult(response: response, saved: true, fileSize: size)
            case 416 where start > 0:
                // "bytes */N": a file of N bytes. Unchecked, a sink holding N is whole;
                // holding more, it is not this file: start over.
                if start == resumeFrom, Self.completeLength(response.header("Content-Range")) == resumeFrom {
                    return DownloadResult(response: response, saved: true, fileSize: resumeFrom)
                }
                try restart(sink, url: request.url, because: "\(sink.description) holds more than the file")
                resumeFrom = 0
            default:
                return DownloadResult(response: response, saved: false, fileSize: resumeFrom)
            }
        }
    }

    // MARK: - One exchange

    /// Clears what the last request left and sets what every request shares.
    private func begin(url: String, headers: [HTTPHeader]) {
        // Reset clears every option of the previous request but keeps the
        // connection cache, so keep-alive still works.
        ccurl_easy_reset(handle)
        responseBody = []
        responseHeaders = []
        currentStatus = 0
        bodyLimit = nil
        refuseBeyond = nil
        refusedOversized = false
        errorBuffer[0] = 0

        let selfPointer = Unmanaged.passUnretained(self).toOpaque()
        setLong(CURLOPT_NOSIGNAL, 1)
        setString(CURLOPT_URL, url)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        setLong(CURLOPT_FOLLOWLOCATION, 0)
        setLong(CURLOPT_SSL_VERIFYPEER, 1)
        setLong(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = options.caFile { setString(CURLOPT_CAINFO, caFile) }
        setLong(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(options.connectTimeout * 1000)))
        setString(CURLOPT_USERAGENT, options.userAgent)
        check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")

        check(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            let client = Unmanaged<CurlHTTPClient>.fromOpaque(userdata!).takeUnretainedValue()
            let length = size * count
            guard let data, length > 0 else { return length }
            let bytes = UnsafeRawBufferPointer(start: data, count: length)
            if let sink = client.fileSink, client.currentStatus == 200 || client.currentStatus == 206 {
                // A short count makes curl stop with CURLE_WRITE_ERROR; the sink says why.
                return sink.write(bytes) ? length : 0
            }
            // A short count makes curl stop with CURLE_WRITE_ERROR; finish() says why.
            return client.keep(bytes) ? length : 0
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
        check(ccurl_setopt_xferinfo_callback(handle) { userdata, dltotal, dlnow, ultotal, ulnow in
            let client = Unmanaged<CurlHTTPClient>.fromOpaque(userdata!).takeUnretainedValue()
            client.progressTick?(Int64(dltotal), Int64(dlnow), Int64(ultotal), Int64(ulnow))
            return 0
        }, "CURLOPT_XFERINFOFUNCTION")
        check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, selfPointer), "CURLOPT_XFERINFODATA")
        setLong(CURLOPT_NOPROGRESS, 0)

        var list: UnsafeMutablePointer<curl_slist>? = nil
        for header in headers {
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

    /// Files take as long as they take: no bound on the whole transfer, but one
    /// on how long it may stand still (under a byte a second for that long).
    private func limitStalls(_ seconds: Double) {
        setLong(CURLOPT_TIMEOUT_MS, 0)
        setLong(CURLOPT_LOW_SPEED_LIMIT, 1)
        setLong(CURLOPT_LOW_SPEED_TIME, max(1, Int(seconds.rounded(.up))))
    }

    /// The response of a finished perform, or why there is none.
    private func finish(url: String, code: CURLcode) throws(HTTPError) -> HTTPResponse {
        let log = options.verboseLog
        let elapsedMS = (getDouble(CURLINFO_TOTAL_TIME) ?? 0) * 1000
        if code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && refusedOversized), let limit = refuseBeyond {
            let error = HTTPError(kind: .responseTooLarge, url: SecretRedactor.urlWithoutQuery(url),
                                  detail: "the answer is larger than \(Self.formatBytes(limit)); refused")
            log?("! \(error.detail) after \(Self.formatMilliseconds(elapsedMS))")
            throw error
        }
        guard code == CURLE_OK else {
            let error = HTTPError(kind: Self.kind(of: code), url: SecretRedactor.urlWithoutQuery(url), detail: reason(for: code))
            log?("! \(error.detail) after \(Self.formatMilliseconds(elapsedMS))")
            throw error
        }
        let status = getLong(CURLINFO_RESPONSE_CODE) ?? 0
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

    private func logRequest(_ method: HTTPMethod, _ url: String, _ headers: [HTTPHeader]) {
        guard let log = options.verboseLog else { return }
        log("> \(method) \(SecretRedactor.url(url))")
        for header in headers { let h = SecretRedactor.header(header); log("> \(h.name): \(h.value)") }
    }

    private func failed(_ kind: HTTPError.Kind, _ url: String, _ detail: String) -> HTTPError {
        options.verboseLog?("! \(detail)")
        return HTTPError(kind: kind, url: SecretRedactor.urlWithoutQuery(url), detail: detail)
    }

    /// Empties the sink for a download that must start over.
    private func restart(_ sink: DownloadSink, url: String, because reason: String) throws(HTTPError) {
        options.verboseLog?("! \(reason); starting again from the first byte")
        guard ftruncate(sink.fileDescriptor, 0) == 0, lseek(sink.fileDescriptor, 0, SEEK_SET) == 0 else {
            throw failed(.localFile, url, "cannot start \(sink.description) again: \(String(cString: strerror(errno)))")
        }
    }

    /// Keeps what the body limit allows; false when the body passes `refuseBeyond`.
    fileprivate func keep(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let refuseBeyond, responseBody.count + bytes.count > refuseBeyond {
            refusedOversized = true
            return false
        }
        guard let limit = bodyLimit else { responseBody.append(contentsOf: bytes); return true }
        let room = limit - responseBody.count
        if room > 0 { responseBody.append(contentsOf: bytes.prefix(room)) }
        return true
    }

    static func formatBytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    fileprivate func receivedHeaderLine(_ raw: String) {
        let line = raw.trimmingScalars(" \r\n\t")
        if line.hasPrefix("HTTP/") {
            // A new status line (after "100 Continue", or a proxy's answer) starts a new header block.
            responseHeaders = []
            let parts = line.split(separator: " ", maxSplits: 2)
            currentStatus = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingScalars(" \t")
        let value = String(line[line.index(after: colon)...]).trimmingScalars(" \t")
        responseHeaders.append(HTTPHeader(name, value))
    }

    /// The whole file's size an answer announces: `Content-Range: bytes a-b/N` for
    /// 206, `Content-Length` plus what was there before otherwise.
    static func expectedSize(_ response: HTTPResponse, resumeFrom: Int64) -> Int64? {
        if response.status == 206 {
            guard let range = response.header("Content-Range"), let slash = range.lastIndex(of: "/") else { return nil }
            return Int64(String(range[range.index(after: slash)...]).trimmingScalars(" "))
        }
        return response.header("Content-Length").flatMap { Int64($0.trimmingScalars(" ")) }
    }

    /// N of `Content-Range: bytes */N` (a 416's way to give the size).
    static func completeLength(_ contentRange: String?) -> Int64? {
        guard let text = contentRange?.trimmingScalars(" "), text.hasPrefix("bytes */") else { return nil }
        return Int64(String(text.unicodeScalars.dropFirst(8)))
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

/// A download's descriptor as the write callback fills it: first the bytes to
/// check against what it holds (`verifying`, read back with pread), then every
/// byte written (`write` again after a short count), or the reason it could not be.
private final class FileSinkState {
    let sink: DownloadSink
    private(set) var written: Int64 = 0
    private(set) var failure: String?
    /// The checked bytes differ from the sink's: it holds another file.
    private(set) var differs = false
    private var verifying: Int64
    private var verifyAt: Int64

    init(sink: DownloadSink, verifying: Int64 = 0, from offset: Int64 = 0) {
        self.sink = sink; self.verifying = verifying; self.verifyAt = offset
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var rest = bytes[...]
        if verifying > 0 {
            let count = Int(min(verifying, Int64(rest.count)))
            var held = [UInt8](repeating: 0, count: count)
            let read = held.withUnsafeMutableBytes { pread(sink.fileDescriptor, $0.baseAddress, count, off_t(verifyAt)) }
            guard read == count else {
                failure = "cannot read \(sink.description) back: \(read < 0 ? String(cString: strerror(errno)) : "it is shorter than it was")"
                return false
            }
            guard held.elementsEqual(rest.prefix(count)) else {
                differs = true
                return false
            }
            verifying -= Int64(count)
            verifyAt += Int64(count)
            rest = rest.dropFirst(count)
        }
        var offset = rest.startIndex
        while offset < rest.endIndex {
            let count = Glibc.write(sink.fileDescriptor, bytes.baseAddress! + offset, rest.endIndex - offset)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                let reason = count < 0 ? String(cString: strerror(errno)) : "nothing could be written"
                failure = "cannot write \(sink.description): \(reason)"
                return false
            }
            offset += count
            written += Int64(count)
        }
        return true
    }
}

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
