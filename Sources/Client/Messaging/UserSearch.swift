import Diagnostics

/// What `chatctl users QUERY` looks for (docs/protocol.md §3): everyone, one login
/// (`@alice`), one email address (`a@example.com`), or text that is tried as a login
/// and searched for in full names.
package enum UserSearch: Sendable, Equatable {
    case everyone
    case login(String)
    case email(String)
    case text(String)

    /// The hosted service searches full names of at least this many characters.
    package static let shortestFullName = 3

    /// Reads a query: nil or blank is everyone; `@x` a login; `a@b` an email address.
    package init(parsing query: String?) throws(Failure) {
        let text = (query ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if text.isEmpty {
            self = .everyone
        } else if text.hasPrefix("@") {
            let login = String(text.dropFirst())
            guard !login.isEmpty, !login.contains(" "), !login.contains("@") else {
                throw Failure(.invalidInput, "'\(text)' is not a login", hint: "write @ and a login, like @alice")
            }
            self = .login(login)
        } else if text.contains("@") {
            self = .email(text)
        } else {
            self = .text(text)
        }
    }
}
