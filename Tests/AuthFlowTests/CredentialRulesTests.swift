import Testing
import AuthFlow

/// The validation table: the QuickBlox samples' rules, checked before any network call.
@Suite struct CredentialRulesTests {
    @Test(arguments: [
        ("alice", true), ("al", false), ("abc", true), ("a23", true), ("1abc", false),
        ("alice_b", false), ("alice b", false), (String(repeating: "a", count: 50), true),
        (String(repeating: "a", count: 51), false), ("alice@example.com", true), ("a.b+c@mail.example.org", true),
        ("alice@example", false), ("@example.com", false), ("alice@exa_mple.com", false), ("alice@example.c", false),
        ("", false), ("ålice", false),
    ])
    func loginOrEmail(input: String, valid: Bool) {
        #expect(CredentialRules.isValidLoginOrEmail(input) == valid)
    }

    @Test(arguments: [
        ("Alice", true), ("Al", false), ("Alice Smith", true), ("Alice  Smith", false), ("Zoë Ødegård", true),
        ("a_b", true), ("Alice-Smith", false), (String(repeating: "x", count: 20), true),
        (String(repeating: "x", count: 21), false), ("Alice\tSmith", false),
    ])
    func displayName(input: String, valid: Bool) {
        #expect(CredentialRules.isValidDisplayName(input) == valid)
    }

    @Test(arguments: [
        ("secret12", true), ("short7!", false), ("p@ss,w0rd;!", true), ("has space1", false),
        (String(repeating: "Ab1!", count: 64), true), ("tab\there1", false), ("пароль12", true),
    ])
    func password(input: String, valid: Bool) {
        #expect(CredentialRules.isValidPassword(input) == valid)
    }

    @Test func hintsAreTheSamplesOwn() {
        #expect(CredentialRules.loginHint == "Use your email or alphanumeric characters in a range from 3 to 50. First character must be a letter.")
        #expect(CredentialRules.displayNameHint == "Use alphanumeric characters and spaces in a range from 3 to 20. Cannot contain more than one space in a row.")
    }
}
