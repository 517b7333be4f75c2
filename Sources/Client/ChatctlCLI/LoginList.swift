/// `@alice,@bob @carol` as logins: split on commas and spaces, `@` dropped, duplicates once.
enum LoginList {
    static func parse(_ words: [String]) -> [String] {
        var logins: [String] = []
        for word in words {
            for part in word.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
                let login = part.hasPrefix("@") ? String(part.dropFirst()) : String(part)
                if !login.isEmpty && !logins.contains(login) { logins.append(login) }
            }
        }
        return logins
    }
}
