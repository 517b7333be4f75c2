/// The HMAC an application is configured for (docs/protocol.md §2).
package enum SignatureAlgorithm: String, Sendable { case hmacSHA1 = "sha1", hmacSHA256 = "sha256" }
