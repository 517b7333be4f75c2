#include "ccryptoshim.h"
#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>

_Static_assert(EVP_MAX_MD_SIZE <= CCRYPTO_MAX_DIGEST, "CCRYPTO_MAX_DIGEST holds any digest");

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcrypto not loaded yet";
// dlerror's text lasts only until the next failing dl call (another shim's, say).
static char load_error_text[512];
static __typeof__(EVP_sha1) *p_sha1;
static __typeof__(EVP_sha256) *p_sha256;
static __typeof__(HMAC) *p_hmac;

static void load(void) {
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error_text, sizeof load_error_text, "%s", dlerror());
        load_error = load_error_text;
        return;
    }
#define SYM(var, name) if (!(*(void **)(&var) = dlsym(lib, name))) { load_error = "libcrypto lacks " name; return; }
    SYM(p_sha1, "EVP_sha1")
    SYM(p_sha256, "EVP_sha256")
    SYM(p_hmac, "HMAC")
#undef SYM
    load_error = 0;
}

int ccrypto_load(void) { pthread_once(&load_once, load); return load_error ? -1 : 0; }
const char *ccrypto_load_error(void) { ccrypto_load(); return load_error ? load_error : ""; }

int ccrypto_hmac(int digest, const void *key, int key_length, const unsigned char *message, size_t message_length,
                 unsigned char *out) {
    if (ccrypto_load()) return -1;
    const EVP_MD *md = digest == CCRYPTO_SHA256 ? p_sha256() : digest == CCRYPTO_SHA1 ? p_sha1() : NULL;
    if (!md) return -1;
    unsigned int length = 0;
    if (!p_hmac(md, key, key_length, message, message_length, out, &length)) return -1;
    return (int)length;
}
