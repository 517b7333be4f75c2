/// One element of argv, classified before anything is bound to the command tree.
struct ArgumentToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `--name` or `--name=value`
        case long(name: String, value: String?)
        /// `-x`, or a bundle `-abc`
        case short([Character])
        /// Anything else, including `-` alone and every element after `--`.
        case value
        /// `--`
        case terminator
    }
    var kind: Kind
    /// The element exactly as given.
    var raw: String

    static func tokenize(_ arguments: [String]) -> [ArgumentToken] {
        var tokens: [ArgumentToken] = []
        var afterTerminator = false
        for raw in arguments {
            if afterTerminator {
                tokens.append(ArgumentToken(kind: .value, raw: raw))
            } else if raw == "--" {
                afterTerminator = true
                tokens.append(ArgumentToken(kind: .terminator, raw: raw))
            } else if raw.hasPrefix("--") {
                let body = raw.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    let name = String(body[..<equals])
                    let value = String(body[body.index(after: equals)...])
                    tokens.append(ArgumentToken(kind: .long(name: name, value: value), raw: raw))
                } else {
                    tokens.append(ArgumentToken(kind: .long(name: String(body), value: nil), raw: raw))
                }
            } else if raw.hasPrefix("-") && raw.count > 1 {
                tokens.append(ArgumentToken(kind: .short(Array(raw.dropFirst())), raw: raw))
            } else {
                tokens.append(ArgumentToken(kind: .value, raw: raw))
            }
        }
        return tokens
    }
}
