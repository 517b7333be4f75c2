// Why this shim exists: linking libstrophe brings libssl, libcrypto and libexpat
// into every chatctl run, and loading them cost ~1.5 ms of a 5 ms `--version`,
// while only commands that chat need them. This module defines the
// libstrophe functions XMPPTransport calls, under their own names (so the Swift
// reads as libstrophe's API), each forwarding through a pointer that the first
// call fills by loading libstrophe with dlopen, as CCurlShim does for libcurl.
// The definitions are hidden: they never interpose on the real library.
#ifndef CSTROPHE_H
#define CSTROPHE_H
#include <strophe.h>

/// Loads libstrophe (once). Returns 0 on success; otherwise every libstrophe
/// call fails (NULL / XMPP_EINT / no effect) and cstrophe_load_error() says why.
int cstrophe_load(void);
const char *cstrophe_load_error(void);
#endif
