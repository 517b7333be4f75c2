public struct AppCredentials: Sendable, Equatable {
    public var applicationId: Int
    public var authKey: String
    public var authSecret: String
    public var accountKey: String?
    public var signatureAlgorithm: SignatureAlgorithm
    public init(applicationId: Int, authKey: String, authSecret: String, accountKey: String? = nil, signatureAlgorithm: SignatureAlgorithm = .hmacSHA1) {
        self.applicationId = applicationId; self.authKey = authKey; self.authSecret = authSecret
        self.accountKey = accountKey; self.signatureAlgorithm = signatureAlgorithm
    }
}
