/// A JID split into local part, domain and resource (RFC 7622, without normalisation
/// beyond lowercasing the domain, which is all QuickBlox JIDs need).
struct XMPPAddress: Equatable {
    var local: String?
    var domain: String
    var resource: String?

    init?(_ text: String) {
        // Over the contiguous UTF-8, each part made once: walking the String (grapheme clusters)
        // or its Substrings cost every routed stanza more than storing it. "/" and "@" are
        // ASCII, so the parts split there are valid UTF-8.
        var text = text
        guard let parts = text.withUTF8({ bytes -> (local: String?, domain: String, resource: String?)? in
            var end = bytes.count
            var resource: String?
            if let slash = bytes.firstIndex(of: UInt8(ascii: "/")) {
                resource = String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self)
                end = slash
            }
            var start = 0
            var local: String?
            if let at = bytes[..<end].firstIndex(of: UInt8(ascii: "@")) {
                guard at > 0 else { return nil }
                local = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<at]), as: UTF8.self)
                start = at + 1
            }
            guard start < end else { return nil }
            let domainBytes = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let domain = String(decoding: domainBytes, as: UTF8.self)
            // Lowercasing goes scalar by scalar; a domain is nearly always lowercase ASCII already.
            let lowercase = !domainBytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 })
            return (local, lowercase ? domain : domain.lowercased(), resource)
        }) else { return nil }
        local = parts.local
        domain = parts.domain
        resource = parts.resource
    }

    var bare: String { (local.map { "\($0)@" } ?? "") + domain }

    /// The user id of `{userId}-{appId}@{domain}`.
    func userId(applicationId: Int, domain expected: String) -> Int? {
        guard domain == expected, let local else { return nil }
        // Exactly one "-" (found by byte: every routed stanza asks).
        let utf8 = local.utf8
        guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let after = utf8.index(after: dash)
        guard !utf8[after...].contains(UInt8(ascii: "-")), let id = Int(local[..<dash]), id > 0,
              Int(local[after...]) == applicationId else { return nil }
        return id
    }

    /// The dialog id of `{appId}_{dialogId}@muc.{domain}`.
    func roomDialogId(applicationId: Int, domain expected: String) -> String? {
        guard domain == "muc." + expected, let local else { return nil }
        let parts = local.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, Int(parts[0]) == applicationId, !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }
}
