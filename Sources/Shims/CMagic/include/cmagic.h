// Why this shim exists: libmagic (Debian libmagic-dev) judges an attachment's
// type from its bytes, but linking it, with its liblzma, libbz2 and libz, costs
// every chatctl run start-up time (`--version` included: ~0.7 ms of 4) while only
// an upload needs it. The shim loads libmagic with dlopen on first use, as
// CCurlShim does libcurl; every libmagic function is reached through it.
#ifndef CMAGIC_H
#define CMAGIC_H
#include <magic.h>

/// Loads libmagic (once). Returns 0 on success; otherwise every call below fails
/// (NULL / -1) and cmagic_load_error() says why.
int cmagic_load(void);
const char *cmagic_load_error(void);

magic_t cmagic_open(int flags);
void cmagic_close(magic_t cookie);
/// magic_load: the database at `path`, or the system's for NULL.
int cmagic_load_database(magic_t cookie, const char *path);
const char *cmagic_buffer(magic_t cookie, const void *buffer, size_t length);
#endif
