// An MD5 fed piece by piece: the ETag S3 gives an uploaded object, for the storage endpoint's
// PostResponse (docs/protocol.md §8). MD5 identifies content there; it guards nothing.
internal import CCrypto

/// One running digest; owns its `EVP_MD_CTX` (freed in `deinit`). Not Sendable: one thread feeds it.
package final class StreamingDigest {
    private let context: OpaquePointer

    /// nil when libcrypto cannot make the context (out of memory, MD5 disabled).
    package init?() {
        guard let context = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` (wraps `EVP_DigestUpdate`).
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "EVP_DigestUpdate failed")
    }

    /// The digest of everything added, as lowercase hex (wraps `EVP_DigestFinal_ex`); call once.
    package func hexDigest() -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "EVP_DigestFinal_ex failed")
        return Hex.string(Array(out.prefix(Int(length))))
    }
}

@available(*, unavailable) extension StreamingDigest: Sendable {}
