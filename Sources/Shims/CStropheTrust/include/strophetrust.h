#ifndef STROPHETRUST_H
#define STROPHETRUST_H

// Which CAs libstrophe's TLS trusts, chosen per chat connection and parsed once per
// process (docs/protocol.md §7). libstrophe 0.12 builds a new SSL_CTX for every TLS
// set-up (twice for STARTTLS: a probe, then the handshake) and calls
// SSL_CTX_set_default_verify_paths on it, which parses the whole system bundle
// (~20 ms with OpenSSL 3) before adding the connection's CA file, and it offers no
// way to hand it a store. This target defines that function in the executable, where
// libstrophe finds it before libssl's: on a thread that has chosen a trust, the new
// SSL_CTX shares that trust's X509_STORE; everywhere else libssl's own runs.

/// One choice of trusted CAs: the certificates of one PEM file, or the system's store.
typedef struct strophe_trust strophe_trust;

/// The trust of `ca_file` alone, or with NULL the system's default store (what libssl
/// would load: SSL_CERT_FILE, SSL_CERT_DIR, else OpenSSL's defaults). The same path
/// gives the same object, which lives as long as the process. NULL only when out of memory.
strophe_trust *strophe_trust_for(const char *ca_file);

/// TLS set-ups on the calling thread use `trust` until the next call; NULL restores libssl's own.
void strophe_trust_use(strophe_trust *trust);

/// 1 when libstrophe's calls reach this target's SSL_CTX_set_default_verify_paths (it is
/// exported and found first); 0 otherwise, and then the caller must give libstrophe the CA
/// file itself (xmpp_conn_set_cafile), as before, or its connections trust no private CA.
int strophe_trust_is_interposed(void);

/// How many times the store was parsed (from a file that changed since, too), and how many
/// TLS set-ups used it: what tests look at.
unsigned long strophe_trust_loads(strophe_trust *trust);
unsigned long strophe_trust_uses(strophe_trust *trust);

/// Looks libssl up now (it must be loaded), rather than in the first TLS set-up: dlopen
/// waits while another thread is loading a library.
void strophe_trust_prepare(void);

#endif
