#include "ccryptoshim.h"
#include "library_loading.h"
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>

_Static_assert(EVP_MAX_MD_SIZE <= CCRYPTO_MAX_DIGEST, "CCRYPTO_MAX_DIGEST holds any digest");

static library_loading loading = LIBRARY_LOADING("libcrypto");
static __typeof__(EVP_sha1) *p_sha1;
static __typeof__(EVP_sha256) *p_sha256;
static __typeof__(HMAC) *p_hmac;

static void load(void) {
    if (!library_open(&loading, "libcrypto.so.3")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_sha1, "EVP_sha1")
    SYM(p_sha256, "EVP_sha256")
    SYM(p_hmac, "HMAC")
#undef SYM
    library_loaded(&loading);
}

int ccrypto_load(void) { return library_load(&loading, load); }
const char *ccrypto_load_error(void) { ccrypto_load(); return library_error(&loading); }

int ccrypto_hmac(int digest, const void *key, int key_length, const unsigned char *message, size_t message_length,
                 unsigned char *out) {
    if (ccrypto_load()) return -1;
    const EVP_MD *md = digest == CCRYPTO_SHA256 ? p_sha256() : digest == CCRYPTO_SHA1 ? p_sha1() : NULL;
    if (!md) return -1;
    unsigned int length = 0;
    if (!p_hmac(md, key, key_length, message, message_length, out, &length)) return -1;
    return (int)length;
}
