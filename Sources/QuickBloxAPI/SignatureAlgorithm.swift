/// The HMAC an application is configured for (protocol doc section 2).
public enum SignatureAlgorithm: String, Sendable { case hmacSHA1 = "sha1", hmacSHA256 = "sha256" }
