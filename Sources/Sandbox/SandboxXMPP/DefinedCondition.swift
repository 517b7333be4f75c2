/// A defined condition of RFC 6120, a stream error's (§4.9.3) or a stanza error's (§8.3.3):
/// its element's name is its case's, hyphenated and lowercased (`badFormat` is `bad-format`,
/// `restrictedXML` is `restricted-xml`), so each list is only its cases.
protocol DefinedCondition {}

extension DefinedCondition {
    /// The condition's element name.
    var rawValue: String {
        var name = ""
        var afterLowercase = false
        for character in String(describing: self) {
            if character.isUppercase && afterLowercase { name.append("-") }
            afterLowercase = character.isLowercase
            name += character.lowercased()
        }
        return name
    }
}
