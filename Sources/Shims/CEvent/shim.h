// The sandbox's servers: libevent's HTTP server for REST, bufferevents (plain
// and OpenSSL-filtered for STARTTLS) for XMPP, OpenSSL for the self-signed
// certificate. One header so the sandbox module sees them as one C module.
//
// The libc headers come first, on purpose: event2/event-config.h defines
// _GNU_SOURCE, and if glibc's features.h were first read after that, this
// module's fd_set (and friends) would differ from Swift's Glibc module's and
// the build would fail with "not present in definition of 'fd_set'".
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <event2/thread.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/bio.h>

// The listeners' getaddrinfo hints. SOCK_STREAM comes from a glibc header that
// several C modules here include; which of them Swift credits with it depends
// on build order, so a clean build could lose it. A constant of this module's
// own is always found.
static const int sandbox_sock_stream = SOCK_STREAM;
