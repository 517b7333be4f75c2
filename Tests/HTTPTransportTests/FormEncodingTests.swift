import HTTPTransport
import Testing

struct FormEncodingTests {
    /// What would change a query's meaning is escaped; what RFC 3986 leaves unreserved is not.
    @Test func onlyUnreservedBytesStayAsTheyAre() {
        #expect(PercentEncoding.encode("Az09-._~", keeping: .unreserved) == "Az09-._~")
        #expect(PercentEncoding.encode("a b+c&d=e[f]/?#%", keeping: .unreserved) == "a%20b%2Bc%26d%3De%5Bf%5D%2F%3F%23%25")
        #expect(PercentEncoding.encode("é✓", keeping: .unreserved) == "%C3%A9%E2%9C%93")
        #expect(PercentEncoding.encode("", keeping: .unreserved) == "")
    }

    /// A path keeps its slashes and nothing else beyond the unreserved set (a `:` could read as a scheme).
    @Test func aPathKeepsItsSlashes() {
        #expect(PercentEncoding.encode("files/a b#1:x.png", keeping: .pathCharacters) == "files/a%20b%231%3Ax.png")
    }

    @Test func pairsKeepTheirOrderAndEscapeBothSides() {
        let form = FormEncoding.encode([("user[login]", "a&b"), ("user[password]", "x=y z"), ("n", "")])
        #expect(form == "user%5Blogin%5D=a%26b&user%5Bpassword%5D=x%3Dy%20z&n=")
        #expect(FormEncoding.encode([]) == "")
    }
}
