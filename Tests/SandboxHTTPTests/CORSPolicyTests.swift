import Foundation
// The CORS decisions of docs/protocol.md §10, without sockets: which origins, which
// methods and headers, and what a preflight gets.
import Testing
import SandboxHTTP

@Suite struct CORSOriginsTests {
    @Test(arguments: [
        ("http://localhost:3000", "http://localhost:3000"),
        ("HTTP://LocalHost:3000", "http://localhost:3000"),
        ("http://localhost:80", "http://localhost"),
        ("https://app.example:443", "https://app.example"),
        ("https://app.example:8443", "https://app.example:8443"),
        ("http://127.0.0.1:5173", "http://127.0.0.1:5173"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("null", "null"),
        ("NULL", "null"),
        ("file://", "null"),
        ("*", "*"),
    ])
    func anOriginIsNormalisedAsBrowsersSendIt(given: String, normalised: String) {
        #expect(CORSOrigins.normalized(given) == normalised)
    }

    @Test(arguments: ["", "localhost:3000", "http://localhost:3000/", "http://localhost:3000/app", "http://localhost:3000?x",
                      "http://", "http://:80", "http://a:0", "http://a:65536", "http://a:x", "http://user@a", "://a",
                      "1http://a", "http://a b", "http://[::1", "http://::1", "http://a:"])
    func whatIsNoOriginIsRefusedWithAHint(value: String) {
        #expect(CORSOrigins.normalized(value) == nil)
        do {
            _ = try CORSOrigins(["http://fine.example", value])
            Issue.record("'\(value)' was taken as an origin")
        } catch {
            #expect(error.description.contains("such as http://localhost:3000") && error.description.contains("'\(value)'"))
        }
    }

    @Test func noValueOrAStarAllowsAnyOrigin() throws {
        #expect(try CORSOrigins([]).allowsAny)
        #expect(try CORSOrigins(["http://a.example", "*"]).allowsAny)
        #expect(CORSOrigins.any.allows("https://anything.example"))
        #expect(CORSOrigins.any.summary == "any origin")
    }

    @Test func namedOriginsAllowOnlyThemselvesHoweverSpelt() throws {
        let origins = try CORSOrigins(["http://localhost:3000", "null"])
        #expect(!origins.allowsAny)
        #expect(origins.allows("http://localhost:3000"))
        #expect(origins.allows("http://LOCALHOST:3000"))
        #expect(origins.allows("null") && origins.allows("file://"))
        #expect(!origins.allows("http://localhost:3001"))
        #expect(!origins.allows("https://localhost:3000"))
        #expect(!origins.allows("http://localhost"))
        #expect(!origins.allows("garbage"))
        #expect(origins.summary == "http://localhost:3000 null")
    }
}

@Suite struct CORSPolicyTests {
    static func names(_ headers: [CORSPolicy.Header]) -> [String] { headers.map(\.name) }
    static func value(_ name: String, _ headers: [CORSPolicy.Header]) -> String? { headers.first { $0.name == name }?.value }

    @Test func byDefaultEveryAnswerAllowsAnyOriginWithoutCredentials() {
        let policy = CORSPolicy.restAPI(.any)
        for origin in ["http://localhost:3000", "null", nil] as [String?] {
            let headers = policy.responseHeaders(origin: origin)
            #expect(Self.value("Access-Control-Allow-Origin", headers) == "*")
            #expect(Self.value("Access-Control-Expose-Headers", headers) == "QB-Token-ExpirationDate")
            #expect(Self.value("Vary", headers) == nil, "the answer does not depend on the origin")
            #expect(Self.value("Access-Control-Allow-Credentials", headers) == nil)
        }
    }

    @Test func theAPIAllowsItsMethodsAndTheHeadersTheSDKsSend() {
        let headers = CORSPolicy.restAPI(.any).preflight(origin: "null").headers
        #expect(Self.value("Access-Control-Allow-Methods", headers) == "GET, POST, PUT, DELETE")
        let allowed = Self.value("Access-Control-Allow-Headers", headers)?.components(separatedBy: ", ") ?? []
        for name in ["Content-Type", "QB-Token", "QB-SDK", "QB-OS", "QB-Account-Key", "QuickBlox-REST-API-Version", "Range"] {
            #expect(allowed.contains(name))
        }
    }

    @Test func theStorageAllowsUploadsAndRangedDownloads() {
        let headers = CORSPolicy.storage(.any).responseHeaders(origin: "http://localhost:3000")
        #expect(Self.value("Access-Control-Allow-Methods", headers) == "GET, HEAD, POST")
        #expect(Self.value("Access-Control-Allow-Headers", headers)?.contains("Range") == true)
        #expect(Self.value("Access-Control-Expose-Headers", headers)?.contains("Content-Range") == true)
    }

    @Test func aPreflightIsA204WithTheListsAndHowLongToKeepThem() {
        let answer = CORSPolicy.restAPI(.any).preflight(origin: "http://localhost:3000")
        #expect(answer.status == 204 && answer.refusal == nil)
        #expect(Self.names(answer.headers) == ["Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
                                               "Access-Control-Allow-Headers", "Access-Control-Expose-Headers",
                                               "Access-Control-Max-Age"])
        #expect(Self.value("Access-Control-Max-Age", answer.headers) == "600")
    }

    @Test func aPrivateNetworkPreflightIsAllowedForAnAllowedOrigin() throws {
        let any = CORSPolicy.restAPI(.any).preflight(origin: "https://app.example", privateNetwork: true)
        #expect(Self.value("Access-Control-Allow-Private-Network", any.headers) == "true")
        #expect(Self.value("Access-Control-Allow-Private-Network", CORSPolicy.restAPI(.any).preflight(origin: "https://app.example").headers) == nil)
        let restricted = CORSPolicy.restAPI(try CORSOrigins(["http://localhost:3000"]))
        let refused = restricted.preflight(origin: "https://app.example", privateNetwork: true)
        #expect(refused.status == 403 && Self.value("Access-Control-Allow-Private-Network", refused.headers) == nil)
    }

    @Test func restrictedTheNamedOriginIsEchoedAndOthersGetNothing() throws {
        let policy = CORSPolicy.restAPI(try CORSOrigins(["http://localhost:3000"]))
        let mine = policy.responseHeaders(origin: "http://localhost:3000")
        #expect(Self.value("Access-Control-Allow-Origin", mine) == "http://localhost:3000")
        #expect(Self.value("Vary", mine) == "Origin")
        #expect(Self.value("Access-Control-Expose-Headers", mine) == "QB-Token-ExpirationDate")
        #expect(policy.responseHeaders(origin: "http://evil.example") == [CORSPolicy.Header("Vary", "Origin")])
        #expect(policy.responseHeaders(origin: "null") == [CORSPolicy.Header("Vary", "Origin")])
        #expect(policy.responseHeaders(origin: nil) == [CORSPolicy.Header("Vary", "Origin")])
    }

    @Test func restrictedAPreflightFromAnotherOriginIsA403SayingWhy() throws {
        let policy = CORSPolicy.restAPI(try CORSOrigins(["http://localhost:3000"]))
        let answer = policy.preflight(origin: "http://evil.example")
        #expect(answer.status == 403)
        #expect(answer.headers == [CORSPolicy.Header("Vary", "Origin")])
        #expect(answer.refusal == "Origin http://evil.example is not allowed (chatctl-sandbox --cors-origin)")
        // Control characters in a header never reach a log line or an error body as they came.
        #expect(policy.preflight(origin: "http://e\u{1B}[31m").refusal?.contains("\u{1B}") == false)
    }

    @Test func restrictedAnOptionsWithoutAnOriginLearnsTheListsButNoOrigin() throws {
        let answer = CORSPolicy.restAPI(try CORSOrigins(["http://localhost:3000"])).preflight(origin: nil)
        #expect(answer.status == 204)
        #expect(Self.value("Access-Control-Allow-Origin", answer.headers) == nil)
        #expect(Self.value("Access-Control-Allow-Methods", answer.headers) == "GET, POST, PUT, DELETE")
    }

    @Test func restrictedTheStorageStillAnswersTheNullOriginOfARedirect() throws {
        let origins = try CORSOrigins(["http://localhost:3000"])
        let storage = CORSPolicy.storage(origins)
        #expect(Self.value("Access-Control-Allow-Origin", storage.responseHeaders(origin: "null")) == "null")
        #expect(storage.preflight(origin: "null").status == 204)
        #expect(Self.value("Access-Control-Allow-Origin", storage.responseHeaders(origin: "http://localhost:3000")) == "http://localhost:3000")
        #expect(storage.preflight(origin: "http://evil.example").status == 403)
        // The API does not: a page from a file is not one of the named.
        #expect(CORSPolicy.restAPI(origins).preflight(origin: "null").status == 403)
    }
}
