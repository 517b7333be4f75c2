import Diagnostics
import ChatIdentifiers

/// How commands name a dialog: its 24-hex `_id`, `@login` or `@email` (the private
/// dialog with that user), or a name as `chatctl dialogs` shows it (`DialogNameIndex`).
package enum DialogReference: Sendable, Equatable, CustomStringConvertible {
    case id(DialogID)
    case user(login: String)
    case name(String)

    package init(parsing text: String) throws(Failure) {
        if text.isEmpty { throw Failure(.invalidInput, "empty dialog reference", hint: "use a dialog id, @login or a dialog name") }
        if text.hasPrefix("@") {
            let login = String(text.dropFirst())
            guard !login.isEmpty else { throw Failure(.invalidInput, "'@' needs a login after it, like @alice") }
            self = .user(login: login)
        } else if let id = DialogID(objectID: text) {
            self = .id(id)
        } else {
            self = .name(text)
        }
    }

    package var description: String {
        switch self {
        case .id(let id): return id.rawValue
        case .user(let login): return "@" + login
        case .name(let name): return name
        }
    }
}
