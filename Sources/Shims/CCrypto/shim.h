// HMAC and digests for request signatures and session keys; random bytes.
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
