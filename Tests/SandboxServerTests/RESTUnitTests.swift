// Pure parts of the REST side, without sockets.
import Testing
import TestSupport
@testable import SandboxServer
import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

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

    @Test(arguments: [RequestSignature.Algorithm.sha1, .sha256])
    func validSignatureOfEitherAlgorithmIsAccepted(algorithm: RequestSignature.Algorithm) {
        let params = [("application_id", "1"), ("nonce", "5"), ("timestamp", "100")]
        let signature = RequestSignature.hmacHex(algorithm, secret: "s3cret", message: RequestSignature.stringToSign(params))
        #expect(signature.count == (algorithm == .sha1 ? 40 : 64))
        #expect(RequestSignature.isValid(signature, parameters: params, secret: "s3cret"))
        #expect(RequestSignature.isValid(signature.uppercased(), parameters: params, secret: "s3cret"))
        #expect(!RequestSignature.isValid(signature, parameters: params, secret: "other"))
        #expect(!RequestSignature.isValid(signature, parameters: params + [("x", "1")], secret: "s3cret"))
        #expect(!RequestSignature.isValid(String(signature.dropLast()), parameters: params, secret: "s3cret"))
    }

    @Test func knownHMACSHA1Vector() {
        // RFC 2202 test case 2.
        #expect(RequestSignature.hmacHex(.sha1, secret: "Jefe", message: "what do ya want for nothing?")
                == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }
}

@Suite struct RequestParsingTests {
    @Test func formBodyDecodesPercentPlusAndBrackets() throws {
        let r = try RESTRequest(method: "POST", path: "/users.json", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                query: nil, body: Array("user%5Blogin%5D=a+b%26c&user[password]=p%3D1".utf8))
        #expect(r.parameter("user[login]") == "a b&c")
        #expect(r.parameter("user[password]") == "p=1")
    }

    @Test func jsonBodyFlattensToBracketedNames() throws {
        let r = try RESTRequest(method: "POST", path: "/session.json", headers: ["content-type": "application/json"],
                                query: "x=1", body: Array(#"{"application_id":22,"user":{"login":"ann"},"ids":[1,2]}"#.utf8))
        #expect(r.parameter("application_id") == "22")
        #expect(r.parameter("user[login]") == "ann")
        #expect(r.parameters("ids[]") == ["1", "2"])
        #expect(r.parameter("x") == "1")
    }

    @Test func formContentTypeOnEmptyBodyIsFine() throws {
        let r = try RESTRequest(method: "GET", path: "/users.json", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                query: "filter%5B%5D=number+id+in+1,2", body: [])
        #expect(r.parameters("filter[]") == ["number id in 1,2"])
    }

    @Test(arguments: [#"{"a":"#, #"{"a":1}x"#, #"[1,2]"#, "{\"a\":\"\u{01}\"}", String(repeating: "[", count: 500)])
    func malformedJSONIsA400(body: String) {
        #expect(throws: RESTError.self) {
            try RESTRequest(method: "POST", path: "/x.json", headers: ["content-type": "application/json"], query: nil, body: Array(body.utf8))
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

@Suite struct SandboxDatabaseTests {
    /// A clock the test moves by hand.
    typealias Clock = TestClock

    func makeDatabase(ttl: Double = 60, clock: Clock = Clock()) throws -> SandboxDatabase {
        try SandboxDatabase(path: nil, tokenTTL: ttl, now: { clock.now })
    }

    func newUser(_ login: String, _ password: String = "password1") -> NewUser {
        NewUser(login: login, password: password, fullName: nil, email: nil, phone: nil, website: nil,
                externalUserId: nil, customData: nil)
    }

    @Test func migrationsAreRecorded() throws {
        let db = try makeDatabase()
        #expect(db.schemaVersion == SandboxDatabase.migrator.migrations.count)
        #expect(try SandboxDatabase.migrator.appliedMigrations(db.db) == SandboxDatabase.migrator.migrations.map(\.name))
    }

    /// A file of an earlier sandbox recorded its steps in `schema_version`: it opens
    /// with its data, nothing re-created, and that table is gone.
    @Test func databaseOfTheEarlierSandboxIsAdopted() throws {
        let path = "/tmp/sandbox-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        do {
            let old = try Database(path: path)
            try old.execute("""
                CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL);
                INSERT INTO schema_version VALUES (1, 'users-sessions-nonces', 0), (2, 'dialogs-messages', 0);
                """)
            // The tables of the two steps that sandbox had (later steps add more).
            let earlier = try Database(path: ":memory:")
            try Migrator(Array(SandboxDatabase.migrator.migrations.prefix(2))).migrate(earlier)
            let schema = try earlier.query("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'schema_%' AND name NOT LIKE 'sqlite_%'") {
                $0.string(0) ?? ""
            }
            for statement in schema { try old.execute(statement) }
            try old.execute("""
                INSERT INTO users (login, password_salt, password_hash, password_iterations, created_at, updated_at)
                VALUES ('kept', x'00', x'00', 1, 0, 0)
                """)
        }
        let adopted = try SandboxDatabase(path: path, tokenTTL: 60)
        #expect(try adopted.user(login: "kept") != nil)
        #expect(adopted.schemaVersion == SandboxDatabase.migrator.migrations.count)
        #expect(try adopted.db.queryFirst("SELECT 1 FROM sqlite_schema WHERE name = 'schema_version'") { _ in true } == nil)
    }

    @Test func fileDatabaseUsesWALAndReopensWithoutRemigrating() throws {
        let path = "/tmp/sandbox-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        do {
            let db = try SandboxDatabase(path: path, tokenTTL: 60)
            _ = try db.insertUser(newUser("kept"))
            #expect(try db.db.queryFirst("PRAGMA journal_mode") { $0["journal_mode"].textValue } == "wal")
        }
        let again = try SandboxDatabase(path: path, tokenTTL: 60)
        #expect(try again.user(login: "kept") != nil)
        #expect(again.schemaVersion == SandboxDatabase.migrator.migrations.count)
    }

    @Test func passwordsAreStoredHashedNotInClear() throws {
        let db = try makeDatabase()
        let user = try db.insertUser(newUser("ann", "Clear-Text-9"))
        let row = try #require(try db.db.queryFirst("SELECT * FROM users WHERE id = ?", [.int(user.id)]) { s in
            (0..<s.columnCount).map(s.value)
        })
        #expect(row.count > 10)
        for value in row {
            if case .text(let s) = value { #expect(!s.contains("Clear-Text-9")) }
            if case .blob(let b) = value { #expect(!String(decoding: b, as: UTF8.self).contains("Clear-Text-9")) }
        }
        #expect(try db.checkPassword(userId: user.id, "Clear-Text-9"))
        #expect(try !db.checkPassword(userId: user.id, "Clear-Text-8"))
    }

    @Test func slidingExpiry() throws {
        let clock = Clock()
        let db = try makeDatabase(ttl: 10, clock: clock)
        let s = try db.createSession(applicationId: 1, userId: 0, nonce: 1, timestamp: 1)
        #expect(s.token.count == 40 && s.token.allSatisfy(\.isHexDigit))
        for _ in 0..<5 {
            clock.now += 8
            #expect(try db.useSession(token: s.token) != nil)
        }
        clock.now += 10.5
        #expect(try db.useSession(token: s.token) == nil)
    }

    @Test func chatAuthenticationByPasswordOrLiveUserToken() throws {
        let clock = Clock()
        let db = try makeDatabase(ttl: 10, clock: clock)
        let ann = try db.insertUser(newUser("ann", "annpassword"))
        let bob = try db.insertUser(newUser("bob", "bobpassword"))
        let session = try db.createSession(applicationId: 1, userId: ann.id, nonce: 1, timestamp: 1)
        let appSession = try db.createSession(applicationId: 1, userId: 0, nonce: 2, timestamp: 1)
        #expect(db.authenticateChat(userId: ann.id, secret: "annpassword"))
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))
        #expect(!db.authenticateChat(userId: bob.id, secret: session.token))
        #expect(!db.authenticateChat(userId: bob.id, secret: "annpassword"))
        #expect(!db.authenticateChat(userId: 0, secret: appSession.token))
        clock.now += 8
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))  // slides
        clock.now += 8
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))
        clock.now += 11
        #expect(!db.authenticateChat(userId: ann.id, secret: session.token))
    }

    @Test func replayedNonceIsRefused() throws {
        let db = try makeDatabase()
        #expect(try db.recordNonce("7", timestamp: 1_000_000, window: 3600))
        #expect(try !db.recordNonce("7", timestamp: 1_000_000, window: 3600))
        #expect(try db.recordNonce("7", timestamp: 1_000_001, window: 3600))
    }

    @Test func passwordRule() {
        #expect(SandboxAPI.passwordProblem("short1") != nil)
        #expect(SandboxAPI.passwordProblem("has space 1") != nil)
        #expect(SandboxAPI.passwordProblem("pässwörd12") != nil)
        #expect(SandboxAPI.passwordProblem("Good-pass_1!") == nil)
    }

    @Test func unopenableFileFailsWithThePath() {
        let error = #expect(throws: SQLiteError.self) { try SandboxDatabase(path: "/nonexistent-dir/x.db", tokenTTL: 60) }
        #expect(error?.message.contains("/nonexistent-dir/x.db") == true)
    }
}
