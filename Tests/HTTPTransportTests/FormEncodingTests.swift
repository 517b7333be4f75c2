import HTTPTransport
import Testing

struct FormEncodingTests {
    /// What would change a query's meaning is escaped; what RFC 3986 leaves unreserved is not.
    @Test func onlyUnreservedBytesStayAsTheyAre() {
        #expect(FormEncoding.percentEncode("Az09-._~") == "Az09-._~")
        #expect(FormEncoding.percentEncode("a b+c&d=e[f]/?#%") == "a%20b%2Bc%26d%3De%5Bf%5D%2F%3F%23%25")
        #expect(FormEncoding.percentEncode("é✓") == "%C3%A9%E2%9C%93")
        #expect(FormEncoding.percentEncode("") == "")
    }

    @Test func pairsKeepTheirOrderAndEscapeBothSides() {
        let form = FormEncoding.encode([("user[login]", "a&b"), ("user[password]", "x=y z"), ("n", "")])
        #expect(form == "user%5Blogin%5D=a%26b&user%5Bpassword%5D=x%3Dy%20z&n=")
        #expect(FormEncoding.encode([]) == "")
    }
}
