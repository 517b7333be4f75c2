/// Input checks made before any network call, with the QuickBlox samples' own
/// rules and hint texts (LoginScreen's `Regex.login`/`Regex.email` and `Hint`).
package enum CredentialRules {
    package static let loginHint = "Use your email or alphanumeric characters in a range from 3 to 50. First character must be a letter."
    package static let displayNameHint = "Use alphanumeric characters and spaces in a range from 3 to 20. Cannot contain more than one space in a row."
    /// Ours: the service's rule (the samples' 8–12 cap is not the service's).
    package static let passwordHint = "Use at least 8 characters: letters, digits and punctuation."

    /// `^[a-zA-Z][a-zA-Z0-9]{2,49}$`
    package static func isValidLogin(_ login: String) -> Bool {
        let bytes = Array(login.utf8)
        guard (3...50).contains(bytes.count), isASCIILetter(bytes[0]) else { return false }
        return bytes.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) }
    }

    /// `^[A-Z0-9a-z\._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,49}$`
    package static func isValidEmail(_ email: String) -> Bool {
        let bytes = Array(email.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0 else { return false }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        let localExtra = Set("._%+-".utf8)
        guard local.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || localExtra.contains($0) }) else { return false }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last, (2...49).contains(tld.count),
              tld.allSatisfy(isASCIILetter) else { return false }
        return labels.dropLast().allSatisfy { label in
            !label.isEmpty && label.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// A login or an email address.
    package static func isValidLoginOrEmail(_ text: String) -> Bool {
        text.contains("@") ? isValidEmail(text) : isValidLogin(text)
    }

    /// 3–20 word characters and spaces, never two spaces in a row.
    package static func isValidDisplayName(_ name: String) -> Bool {
        guard (3...20).contains(name.count) else { return false }
        var previousWasSpace = false
        for ch in name {
            if ch == " " {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else if ch.isLetter || ch.isNumber || ch == "_" {
                previousWasSpace = false
            } else {
                return false
            }
        }
        return true
    }

    /// At least 8 characters; letters, digits and ASCII punctuation/symbols;
    /// no spaces or control characters. No upper bound: the service has none.
    package static func isValidPassword(_ password: String) -> Bool {
        guard password.count >= 8 else { return false }
        return password.unicodeScalars.allSatisfy { scalar in
            if scalar.isASCII { return (0x21...0x7E).contains(scalar.value) }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    private static func isASCIILetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }
    private static func isASCIIDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }

    /// The login (or an email's local part) as a valid display name.
    package static func defaultDisplayName(for login: String) -> String {
        let base = login.split(separator: "@").first.map(String.init) ?? login
        let cleaned = String(base.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : " " })
            .split(separator: " ").joined(separator: " ")
        var candidate = Substring(cleaned.prefix(20))
        while candidate.first == " " { candidate.removeFirst() }
        while candidate.last == " " { candidate.removeLast() }
        return isValidDisplayName(String(candidate)) ? String(candidate) : "chatctl user"
    }
}
