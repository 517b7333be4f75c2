/// A request's method: a type, so that no call can send a misspelt one.
package enum HTTPMethod: String, Sendable, CustomStringConvertible {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"

    /// As a request line spells it: `GET`.
    package var description: String { rawValue }

    /// Whether the request carries a body, an empty one if need be (curl's POSTFIELDS).
    var carriesBody: Bool { self == .post || self == .put || self == .patch }
}
