internal import CCurlShim
#if canImport(Glibc)
import Glibc
#endif

/// A `multipart/form-data` body (libcurl's mime API): text fields in the order
/// given, then the file part, read through `UploadFileReader` as curl sends it.
/// The only file that touches `curl_mime`; frees it in `deinit`.
final class CurlMultipartForm {
    /// `curl_mime *`, for CURLOPT_MIMEPOST.
    let mime: OpaquePointer
    let reader: UploadFileReader

    /// Nil when curl cannot allocate the form.
    init?(easyHandle: UnsafeMutableRawPointer, fields: [MultipartUploadRequest.Field], fileField: String, reader: UploadFileReader) {
        guard let mime = ccurl_mime_init(easyHandle) else { return nil }
        self.mime = mime
        self.reader = reader
        for field in fields {
            guard let part = ccurl_mime_addpart(mime) else { return nil }
            Self.check(ccurl_mime_name(part, field.name), "curl_mime_name")
            // curl_mime_data copies the bytes; the count keeps any NUL a decoded value holds.
            Self.check(field.value.withCString { ccurl_mime_data(part, $0, field.value.utf8.count) }, "curl_mime_data")
        }
        guard let part = ccurl_mime_addpart(mime) else { return nil }
        Self.check(ccurl_mime_name(part, fileField), "curl_mime_name")
        Self.check(ccurl_mime_filename(part, reader.file.name), "curl_mime_filename")
        Self.check(ccurl_mime_type(part, reader.file.contentType), "curl_mime_type")
        let userdata = Unmanaged.passUnretained(reader).toOpaque()
        Self.check(ccurl_mime_data_cb(part, curl_off_t(reader.file.size), { buffer, size, count, userdata in
            let reader = Unmanaged<UploadFileReader>.fromOpaque(userdata!).takeUnretainedValue()
            guard let buffer else { return 0 }
            return reader.read(into: buffer, capacity: size * count) ?? Int(CURL_READFUNC_ABORT)
        }, { userdata, offset, origin in
            let reader = Unmanaged<UploadFileReader>.fromOpaque(userdata!).takeUnretainedValue()
            // curl only ever rewinds the part to its start (SEEK_SET).
            guard origin == SEEK_SET, reader.seek(to: Int64(offset)) else { return CURL_SEEKFUNC_CANTSEEK }
            return CURL_SEEKFUNC_OK
        }, userdata), "curl_mime_data_cb")
    }

    deinit { ccurl_mime_free(mime) }

    /// These fail only for a NULL part or out of memory: a programmer error.
    private static func check(_ code: CURLcode, _ function: StaticString) {
        if code != CURLE_OK { preconditionFailure("\(function) failed: \(String(cString: ccurl_easy_strerror(code)))") }
    }
}

@available(*, unavailable)
extension CurlMultipartForm: Sendable {}
