// Pure parts of the REST side, without sockets.
import Testing
import SandboxCrypto
import SandboxJSON
@testable import SandboxREST

@Suite struct RequestSignatureTests {
    @Test func stringToSignMatchesTheProtocolExample() {
        let params = [("timestamp", "1326966962"), ("nonce", "33432"), ("auth_key", "wJHd4cQSxpQGWx5"),
                      ("application_id", "22"), ("signature", "ignored")]
        #expect(RequestSignature.stringToSign(params)
                == "application_id=22&auth_key=wJHd4cQSxpQGWx5&nonce=33432&timestamp=1326966962")
    }

    @Test func nestedUserFieldsSortBytewise() {
        let params = [("user[password]", "p"), ("user[login]", "a b&c"), ("nonce", "1")]
        #expect(RequestSignature.stringToSign(params) == "nonce=1&user[login]=a b&c&user[password]=p")
    }

    @Test(arguments: [HMACAlgorithm.sha1, .sha256])
    func validSignatureOfEitherAlgorithmIsAccepted(algorithm: HMACAlgorithm) {
        let params = [("application_id", "1"), ("nonce", "5"), ("timestamp", "100")]
        let signature = algorithm.hexCode(secret: "s3cret", message: RequestSignature.stringToSign(params))
        #expect(signature.count == (algorithm == .sha1 ? 40 : 64))
        #expect(RequestSignature.isValid(signature, parameters: params, secret: "s3cret"))
        #expect(RequestSignature.isValid(signature.uppercased(), parameters: params, secret: "s3cret"))
        #expect(!RequestSignature.isValid(signature, parameters: params, secret: "other"))
        #expect(!RequestSignature.isValid(signature, parameters: params + [("x", "1")], secret: "s3cret"))
        #expect(!RequestSignature.isValid(String(signature.dropLast()), parameters: params, secret: "s3cret"))
    }

    @Test func knownHMACSHA1Vector() {
        // RFC 2202 test case 2.
        #expect(HMACAlgorithm.sha1.hexCode(secret: "Jefe", message: "what do ya want for nothing?")
                == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }
}

@Suite struct RequestParsingTests {
    @Test func formBodyDecodesPercentPlusAndBrackets() throws {
        let r = try RESTRequest(method: .post, path: "/users.json", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                query: nil, body: Array("user%5Blogin%5D=a+b%26c&user[password]=p%3D1".utf8))
        #expect(r.parameter("user[login]") == "a b&c")
        #expect(r.parameter("user[password]") == "p=1")
    }

    @Test func jsonBodyFlattensToBracketedNames() throws {
        let r = try RESTRequest(method: .post, path: "/session.json", headers: ["content-type": "application/json"],
                                query: "x=1", body: Array(#"{"application_id":22,"user":{"login":"ann"},"ids":[1,2]}"#.utf8))
        #expect(r.parameter("application_id") == "22")
        #expect(r.parameter("user[login]") == "ann")
        #expect(r.parameters("ids[]") == ["1", "2"])
        #expect(r.parameter("x") == "1")
    }

    @Test func formContentTypeOnEmptyBodyIsFine() throws {
        let r = try RESTRequest(method: .get, path: "/users.json", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                query: "filter%5B%5D=number+id+in+1,2", body: [])
        #expect(r.parameters("filter[]") == ["number id in 1,2"])
    }

    @Test(arguments: [#"{"a":"#, #"{"a":1}x"#, #"[1,2]"#, "{\"a\":\"\u{01}\"}", String(repeating: "[", count: 500)])
    func malformedJSONIsA400(body: String) {
        #expect(throws: RESTError.self) {
            try RESTRequest(method: .post, path: "/x.json", headers: ["content-type": "application/json"], query: nil, body: Array(body.utf8))
        }
    }

    @Test func jsonRoundTripsEscapes() throws {
        let v = try JSONParser.parse(Array(#"{"s":"a\"b\\c\n\u00e9\ud83d\ude00","n":-1.5e3,"t":true,"z":null}"#.utf8))
        #expect(v["s"] == .string("a\"b\\c\né😀"))
        #expect(v["n"] == .number("-1.5e3"))
        #expect(v.serialized == #"{"s":"a\"b\\c\né😀","n":-1.5e3,"t":true,"z":null}"#)
    }

    @Test func pathPatternsCaptureAndRejectMismatches() {
        let p = PathPattern("/users/{id}.json")
        #expect(p.match("/users/42.json") == ["id": "42"])
        #expect(p.match("/users/.json") == nil)
        #expect(p.match("/users/42.xml") == nil)
        #expect(p.match("/users/42/x.json") == nil)
        #expect(PathPattern("/session.json").match("/session.json") == [:])
    }
}

@Suite struct PasswordRuleTests {
    @Test func passwordRule() {
        #expect(SandboxAPI.passwordProblem("short1") != nil)
        #expect(SandboxAPI.passwordProblem("has space 1") != nil)
        #expect(SandboxAPI.passwordProblem("pässwörd12") != nil)
        #expect(SandboxAPI.passwordProblem("Good-pass_1!") == nil)
    }
}
