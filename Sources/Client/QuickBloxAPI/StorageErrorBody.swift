/// The reason in a storage service's error answer (docs/protocol.md §8): S3's XML
/// `<Error><Code>AccessDenied</Code><Message>…</Message></Error>` read as
/// "AccessDenied: …"; a QuickBlox JSON `errors` body as usual.
enum StorageErrorBody {
    static func reasons(_ body: [UInt8]) -> [String] {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        if text.contains("<Error") {
            let code = element("Code", in: text)
            let message = element("Message", in: text)
            switch (code, message) {
            case let (code?, message?): return ["\(code): \(message)"]
            case let (code?, nil): return [code]
            case let (nil, message?): return [message]
            case (nil, nil): break
            }
        }
        return ErrorBody(body).reasons
    }

    /// The text of the first `<name>…</name>`, entities decoded, whitespace folded; nil when absent or empty.
    static func element(_ name: String, in text: String) -> String? {
        guard let open = text.firstRange(of: "<\(name)>"),
              let close = text[open.upperBound...].firstRange(of: "</\(name)>") else { return nil }
        let raw = text[open.upperBound..<close.lowerBound]
        var decoded = raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\t" })
            .joined(separator: " ")
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            decoded = decoded.replacing(entity, with: character)
        }
        return decoded.isEmpty ? nil : decoded
    }
}
