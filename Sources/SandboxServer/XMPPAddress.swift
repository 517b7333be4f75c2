/// A JID split into local part, domain and resource (RFC 7622, without normalisation
/// beyond lowercasing the domain, which is all QuickBlox JIDs need).
struct XMPPAddress: Equatable {
    var local: String?
    var domain: String
    var resource: String?

    init?(_ text: String) {
        // Searched byte by byte: `firstIndex(of:)` on the String walks grapheme clusters, which
        // cost every routed stanza more than storing it. "/" and "@" are ASCII, so the indices
        // found fall on scalar boundaries.
        var rest = Substring(text)
        resource = nil
        if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) {
            resource = String(rest[rest.utf8.index(after: slash)...])
            rest = rest[..<slash]
        }
        local = nil
        if let at = rest.utf8.firstIndex(of: UInt8(ascii: "@")) {
            local = String(rest[..<at])
            rest = rest[rest.utf8.index(after: at)...]
            if local?.isEmpty == true { return nil }
        }
        guard !rest.isEmpty else { return nil }
        // Lowercasing goes scalar by scalar; a domain is nearly always lowercase ASCII already.
        domain = rest.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 }) ? rest.lowercased() : String(rest)
    }

    var bare: String { (local.map { "\($0)@" } ?? "") + domain }

    /// The user id of `{userId}-{appId}@{domain}`.
    func userId(applicationId: Int, domain expected: String) -> Int? {
        guard domain == expected, let local else { return nil }
        let parts = local.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), id > 0, Int(parts[1]) == applicationId else { return nil }
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
