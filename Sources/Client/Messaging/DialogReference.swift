import Diagnostics

/// How commands name a dialog: its 24-hex `_id`, `@login` or `@email` (the private
/// dialog with that user), or a name as `chatctl dialogs` shows it (`DialogNameIndex`).
package enum DialogReference: Sendable, Equatable, CustomStringConvertible {
    case id(String)
    case user(login: String)
    case name(String)

    package init(parsing text: String) throws(Failure) {
        if text.isEmpty { throw Failure(.invalidInput, "empty dialog reference", hint: "use a dialog id, @login or a dialog name") }
        if text.hasPrefix("@") {
            let login = String(text.dropFirst())
            guard !login.isEmpty else { throw Failure(.invalidInput, "'@' needs a login after it, like @alice") }
            self = .user(login: login)
        } else if text.utf8.count == 24 && text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) {
            self = .id(text)
        } else {
            self = .name(text)
        }
    }

    package var description: String {
        switch self {
        case .id(let id): return id
        case .user(let login): return "@" + login
        case .name(let name): return name
        }
    }
}
