/// `application/x-www-form-urlencoded` and query strings as QuickBlox reads them
/// (docs/protocol.md §5, §9): RFC 3986, every byte but the unreserved ones escaped as `%XX`.
package enum FormEncoding {
    /// `name=value` pairs joined with `&`, each side percent-encoded, in the order given.
    package static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(PercentEncoding.encode($0.0, keeping: .unreserved))=\(PercentEncoding.encode($0.1, keeping: .unreserved))" }
            .joined(separator: "&")
    }
}
