// A `multipart/form-data` body (RFC 7578), as the SDKs upload a custom object's file
// (docs/protocol.md §13): its text fields and its files. The whole body is in memory already
// (the REST port reads at most `RESTService.maximumBodySize`).

/// One file part of a multipart body.
package struct UploadedFile {
    /// The part's field name (`file`).
    package var field: String
    /// The `filename` the client gave, if any.
    package var fileName: String?
    /// The part's own Content-Type, if any.
    package var contentType: String?
    package var bytes: [UInt8]
}

enum MultipartForm {
    /// The boundary of a `multipart/form-data; boundary=…` Content-Type, nil for any other type.
    static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { String($0).trimmingCharacters(" ") }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].trimmingCharacters(" ").lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(" ")
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty || value.utf8.count > 70 ? nil : value
        }
        return nil
    }

    /// The text fields (in order) and the files of `body`; nil when it is not a well-formed
    /// multipart body with that boundary.
    static func parse(_ body: [UInt8], boundary: String) -> (fields: [(String, String)], files: [UploadedFile])? {
        let delimiter = Array("--\(boundary)".utf8)
        guard var start = firstIndex(of: delimiter, in: body, from: 0) else { return nil }
        var fields: [(String, String)] = []
        var files: [UploadedFile] = []
        while true {
            var cursor = start + delimiter.count
            // `--` after a delimiter ends the body.
            if body.count >= cursor + 2, body[cursor] == 0x2D, body[cursor + 1] == 0x2D { return (fields, files) }
            guard body.count >= cursor + 2, body[cursor] == 0x0D, body[cursor + 1] == 0x0A else { return nil }
            cursor += 2
            guard let headerEnd = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: body, from: cursor),
                  let next = firstIndex(of: [0x0D, 0x0A] + delimiter, in: body, from: headerEnd + 4),
                  let headers = String(validating: body[cursor..<headerEnd], as: UTF8.self) else { return nil }
            let content = Array(body[(headerEnd + 4)..<next])
            var name: String?, fileName: String?, contentType: String?
            for line in headers.split(separator: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                switch pair[0].trimmingCharacters(" ").lowercased() {
                case "content-disposition":
                    name = dispositionParameter("name", in: pair[1])
                    fileName = dispositionParameter("filename", in: pair[1])
                case "content-type":
                    contentType = pair[1].trimmingCharacters(" ")
                default: break
                }
            }
            guard let name else { return nil }
            if fileName != nil || (contentType != nil && String(validating: content, as: UTF8.self) == nil) {
                files.append(UploadedFile(field: name, fileName: fileName, contentType: contentType, bytes: content))
            } else {
                guard let text = String(validating: content, as: UTF8.self) else { return nil }
                fields.append((name, text))
            }
            start = next + 2
        }
    }

    /// `name="value"` (or unquoted) from a Content-Disposition's parameters.
    private static func dispositionParameter(_ key: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].trimmingCharacters(" ").lowercased() == key else { continue }
            var value = pair[1].trimmingCharacters(" ")
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
