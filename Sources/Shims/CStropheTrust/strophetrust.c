// See strophetrust.h for why this exists. OpenSSL is reached only through the libssl
// that libstrophe has already loaded (dlopen with RTLD_NOLOAD), so this target links
// neither libssl nor libcrypto and costs nothing to a command that never connects.
#include "strophetrust.h"

#include <dlfcn.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STROPHE_TRUST_STR(x) #x
#define STROPHE_TRUST_XSTR(x) STROPHE_TRUST_STR(x)
#define LIBSSL_SONAME "libssl.so." STROPHE_TRUST_XSTR(OPENSSL_SHLIB_VERSION)

/// Which file a loaded store came from, to notice it being replaced or edited.
struct file_identity {
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified;
    int exists;
};

struct strophe_trust {
    struct strophe_trust *next;
    char *ca_file;              // NULL: the system's store
    pthread_mutex_t lock;
    X509_STORE *store;          // owned; NULL until first used
    struct file_identity loaded_from;
    unsigned long loads, uses;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static strophe_trust *registry;
static __thread strophe_trust *current;

// The libssl functions, from the copy already in the process.
static pthread_once_t symbols_once = PTHREAD_ONCE_INIT;
static struct {
    __typeof__(SSL_CTX_set_default_verify_paths) *set_default_verify_paths;
    __typeof__(SSL_CTX_set1_cert_store) *set1_cert_store;
    __typeof__(X509_STORE_new) *store_new;
    __typeof__(X509_STORE_free) *store_free;
    __typeof__(X509_STORE_up_ref) *store_up_ref;
    __typeof__(X509_STORE_load_locations) *load_locations;
    __typeof__(X509_STORE_set_default_paths) *set_default_paths;
    __typeof__(X509_get_default_cert_file) *default_cert_file;
    __typeof__(X509_get_default_cert_file_env) *default_cert_file_env;
    int ready;
} ssl;

static void find_symbols(void) {
    // Loaded already by whoever is calling into libssl; never loads it here.
    void *lib = dlopen(LIBSSL_SONAME, RTLD_LAZY | RTLD_NOLOAD);
    if (!lib) return;
    // dlsym on the handle searches libssl and then its dependencies (libcrypto).
#define SYM(field, name) if (!(*(void **)(&ssl.field) = dlsym(lib, #name))) return;
    SYM(set_default_verify_paths, SSL_CTX_set_default_verify_paths)
    SYM(set1_cert_store, SSL_CTX_set1_cert_store)
    SYM(store_new, X509_STORE_new)
    SYM(store_free, X509_STORE_free)
    SYM(store_up_ref, X509_STORE_up_ref)
    SYM(load_locations, X509_STORE_load_locations)
    SYM(set_default_paths, X509_STORE_set_default_paths)
    SYM(default_cert_file, X509_get_default_cert_file)
    SYM(default_cert_file_env, X509_get_default_cert_file_env)
#undef SYM
    ssl.ready = 1;
}

static struct file_identity identify(const char *path) {
    struct file_identity id;
    memset(&id, 0, sizeof id);
    struct stat st;
    if (path && stat(path, &st) == 0) {
        id.device = st.st_dev; id.inode = st.st_ino; id.size = st.st_size;
        id.modified = st.st_mtim; id.exists = 1;
    }
    return id;
}

static int same_file(struct file_identity a, struct file_identity b) {
    return a.exists == b.exists && a.device == b.device && a.inode == b.inode && a.size == b.size
        && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec;
}

/// The file a trust is parsed from: its CA file, or the bundle libssl would read.
static const char *source_file(const strophe_trust *trust) {
    if (trust->ca_file) return trust->ca_file;
    const char *env = getenv(ssl.default_cert_file_env());
    return env ? env : ssl.default_cert_file();
}

/// The trust's store with a reference for the caller, parsed again if its file changed;
/// NULL (OpenSSL's error queue says why) when it cannot be loaded.
static X509_STORE *store_for(strophe_trust *trust) {
    pthread_mutex_lock(&trust->lock);
    struct file_identity now = identify(source_file(trust));
    if (!trust->store || !same_file(now, trust->loaded_from)) {
        X509_STORE *fresh = ssl.store_new();
        int ok = fresh && (trust->ca_file ? ssl.load_locations(fresh, trust->ca_file, NULL)
                                          : ssl.set_default_paths(fresh));
        if (ok) {
            if (trust->store) ssl.store_free(trust->store);
            trust->store = fresh;
            trust->loaded_from = now;
            trust->loads++;
        } else {
            if (fresh) ssl.store_free(fresh);
            pthread_mutex_unlock(&trust->lock);
            return NULL;
        }
    }
    X509_STORE *store = trust->store;
    ssl.store_up_ref(store);
    trust->uses++;
    pthread_mutex_unlock(&trust->lock);
    return store;
}

// Takes the place of libssl's for every caller in the process; only a thread that
// chose a trust gets anything but libssl's own behaviour.
int SSL_CTX_set_default_verify_paths(SSL_CTX *ctx) {
    pthread_once(&symbols_once, find_symbols);
    if (!ssl.ready) return 0;
    strophe_trust *trust = current;
    if (!trust) return ssl.set_default_verify_paths(ctx);
    X509_STORE *store = store_for(trust);
    if (!store) return 0;  // libstrophe then fails the TLS set-up: nothing is trusted by mistake
    ssl.set1_cert_store(ctx, store);
    ssl.store_free(store);  // the SSL_CTX holds its own reference
    return 1;
}

strophe_trust *strophe_trust_for(const char *ca_file) {
    pthread_mutex_lock(&registry_lock);
    strophe_trust *trust = registry;
    while (trust && !(ca_file ? trust->ca_file && strcmp(trust->ca_file, ca_file) == 0 : !trust->ca_file))
        trust = trust->next;
    if (!trust && (trust = calloc(1, sizeof *trust))) {
        if (ca_file && !(trust->ca_file = strdup(ca_file))) {
            free(trust);
            trust = NULL;
        } else {
            pthread_mutex_init(&trust->lock, NULL);
            trust->next = registry;
            registry = trust;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return trust;
}

void strophe_trust_use(strophe_trust *trust) { current = trust; }

int strophe_trust_is_interposed(void) {
    return dlsym(RTLD_DEFAULT, "SSL_CTX_set_default_verify_paths") == (void *)&SSL_CTX_set_default_verify_paths;
}

unsigned long strophe_trust_loads(strophe_trust *trust) {
    pthread_mutex_lock(&trust->lock);
    unsigned long n = trust->loads;
    pthread_mutex_unlock(&trust->lock);
    return n;
}

unsigned long strophe_trust_uses(strophe_trust *trust) {
    pthread_mutex_lock(&trust->lock);
    unsigned long n = trust->uses;
    pthread_mutex_unlock(&trust->lock);
    return n;
}

void strophe_trust_prepare(void) { pthread_once(&symbols_once, find_symbols); }
