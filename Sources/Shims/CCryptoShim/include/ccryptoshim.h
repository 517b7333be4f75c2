// Why this shim exists: the client needs libcrypto for one thing, the HMAC that
// signs `POST /session.json`, but linking it made every chatctl run load it
// (and run its initialisers), `--version` included. The shim loads
// libcrypto with dlopen on first use, as CCurlShim does libcurl. The sandbox,
// which needs OpenSSL from its first moment, links it directly (CCrypto).
#ifndef CCRYPTOSHIM_H
#define CCRYPTOSHIM_H
#include <stddef.h>

/// Loads libcrypto (once). Returns 0 on success; otherwise ccrypto_hmac fails
/// and ccrypto_load_error() says why.
int ccrypto_load(void);
const char *ccrypto_load_error(void);

enum { CCRYPTO_SHA1 = 1, CCRYPTO_SHA256 = 2, CCRYPTO_MAX_DIGEST = 64 };

/// HMAC (`HMAC()` with `EVP_sha1()` or `EVP_sha256()`) of `message` keyed with `key`
/// into `out`, which holds CCRYPTO_MAX_DIGEST bytes. Returns the digest's length,
/// or -1 when libcrypto cannot be loaded or HMAC fails.
int ccrypto_hmac(int digest, const void *key, int key_length, const unsigned char *message, size_t message_length,
                 unsigned char *out);
#endif
