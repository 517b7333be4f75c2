package struct AppCredentials: Sendable, Equatable {
    package var applicationId: Int
    package var authKey: String
    package var authSecret: String
    package var accountKey: String?
    package var signatureAlgorithm: SignatureAlgorithm
    package init(applicationId: Int, authKey: String, authSecret: String, accountKey: String? = nil, signatureAlgorithm: SignatureAlgorithm = .hmacSHA1) {
        self.applicationId = applicationId; self.authKey = authKey; self.authSecret = authSecret
        self.accountKey = accountKey; self.signatureAlgorithm = signatureAlgorithm
    }
}
