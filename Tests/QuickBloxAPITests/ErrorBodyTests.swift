import Testing
import QuickBloxAPI

@Suite struct ErrorBodyTests {
    let request = "POST http://127.0.0.1:8080/users.json"

    func error(_ status: Int, _ body: String) -> QuickBloxError {
        QuickBloxError(status: status, request: request, body: Array(body.utf8))
    }

    @Test func arrayShape() {
        let e = error(401, #"{"errors":["Unauthorized"]}"#)
        #expect(e.kind == .http(status: 401))
        #expect(e.reasons == ["Unauthorized"])
        #expect(e.fieldErrors.isEmpty)
        #expect(!e.isLoginTaken)
        #expect(e.isUnauthorized)
    }

    @Test func objectShapeWithFieldAndBase() {
        let e = error(422, #"{"errors":{"password":["is too short"],"base":["Unexpected signature"],"login":["has already been taken"]}}"#)
        #expect(e.reasons == ["Unexpected signature", "login has already been taken", "password is too short"])
        #expect(e.fieldErrors == ["base": ["Unexpected signature"], "login": ["has already been taken"], "password": ["is too short"]])
    }

    @Test(arguments: ["has already been taken", "has already been taken."])
    func loginTakenMatchesTheKeyNotTheText(message: String) {
        let e = error(422, #"{"errors":{"login":["\#(message)"]}}"#)
        #expect(e.isLoginTaken)
        #expect(e.reasons == ["login has already been taken"])
    }

    @Test func emailTakenCountsAsTaken() {
        #expect(error(422, #"{"errors":{"email":["is already in use"]}}"#).isLoginTaken)
    }

    /// Logging in cannot cure a missing or malformed login: that 422 is reported as it is.
    @Test(arguments: [#"{"login":["can't be blank"]}"#, #"{"email":["is invalid"]}"#,
                      #"{"login":["is too short (minimum is 3 characters)"]}"#])
    func notTakenWhenTheValueIsMissingOrMalformed(errors: String) {
        let e = error(422, #"{"errors":\#(errors)}"#)
        #expect(e.fieldErrors.count == 1)
        #expect(!e.isLoginTaken)
    }

    @Test func takenWhenOneFieldSaysSoBesideAComplaint() {
        #expect(error(422, #"{"errors":{"login":["can't be blank"],"email":["has already been taken"]}}"#).isLoginTaken)
    }

    @Test func notTakenWhenOtherFieldOrStatus() {
        #expect(!error(422, #"{"errors":{"password":["is too short"]}}"#).isLoginTaken)
        #expect(!error(422, #"{"errors":{"base":["login has already been taken"]}}"#).isLoginTaken)
        #expect(!error(400, #"{"errors":{"login":["has already been taken"]}}"#).isLoginTaken)
    }

    @Test(arguments: ["", "<html>Service Unavailable</html>", "{}", #"{"errors":[]}"#])
    func bodiesWithoutErrorsStillGiveAReason(body: String) {
        let e = error(503, body)
        #expect(e.reasons == ["HTTP 503 Service Unavailable"])
        #expect(e.description == "POST http://127.0.0.1:8080/users.json: HTTP 503 Service Unavailable")
    }

    @Test func descriptionIsOneLine() {
        let e = QuickBloxError(status: 401, request: "POST http://127.0.0.1:8080/login.json", body: Array(#"{"errors":["Unauthorized"]}"#.utf8))
        #expect(e.description == "POST http://127.0.0.1:8080/login.json: 401 Unauthorized")
    }
}
