#include "ccurlshim.h"
#include <dlfcn.h>
#include <pthread.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl not loaded yet";
static CURLcode (*p_global_init)(long);
static CURL *(*p_easy_init)(void);
static void (*p_easy_cleanup)(CURL *);
static void (*p_easy_reset)(CURL *);
static CURLcode (*p_easy_perform)(CURL *);
static const char *(*p_easy_strerror)(CURLcode);
static struct curl_slist *(*p_slist_append)(struct curl_slist *, const char *);
static void (*p_slist_free_all)(struct curl_slist *);
static CURLcode (*p_easy_setopt)(CURL *, CURLoption, ...);
static CURLcode (*p_easy_getinfo)(CURL *, CURLINFO, ...);

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { load_error = dlerror(); return; }
#define SYM(var, name) if (!(*(void **)(&var) = dlsym(lib, name))) { load_error = "libcurl lacks " name; p_easy_init = 0; return; }
    SYM(p_global_init, "curl_global_init")
    SYM(p_easy_cleanup, "curl_easy_cleanup")
    SYM(p_easy_reset, "curl_easy_reset")
    SYM(p_easy_perform, "curl_easy_perform")
    SYM(p_easy_strerror, "curl_easy_strerror")
    SYM(p_slist_append, "curl_slist_append")
    SYM(p_slist_free_all, "curl_slist_free_all")
    SYM(p_easy_setopt, "curl_easy_setopt")
    SYM(p_easy_getinfo, "curl_easy_getinfo")
    SYM(p_easy_init, "curl_easy_init")
#undef SYM
    load_error = 0;
}

int ccurl_load(void) { pthread_once(&load_once, load); return load_error ? -1 : 0; }
const char *ccurl_load_error(void) { ccurl_load(); return load_error ? load_error : ""; }

CURLcode ccurl_global_init(long flags) { return ccurl_load() ? CURLE_FAILED_INIT : p_global_init(flags); }
CURL *ccurl_easy_init(void) { return ccurl_load() ? 0 : p_easy_init(); }
void ccurl_easy_cleanup(CURL *h) { if (!ccurl_load()) p_easy_cleanup(h); }
void ccurl_easy_reset(CURL *h) { if (!ccurl_load()) p_easy_reset(h); }
CURLcode ccurl_easy_perform(CURL *h) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_perform(h); }
const char *ccurl_easy_strerror(CURLcode c) { return ccurl_load() ? load_error : p_easy_strerror(c); }
struct curl_slist *ccurl_slist_append(struct curl_slist *l, const char *s) { return ccurl_load() ? 0 : p_slist_append(l, s); }
void ccurl_slist_free_all(struct curl_slist *l) { if (!ccurl_load()) p_slist_free_all(l); }

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_data_callback(CURL *h, CURLoption o, ccurl_data_callback v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, o, v); }
CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_getinfo(h, i, v); }
CURLcode ccurl_getinfo_double(CURL *h, CURLINFO i, double *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_getinfo(h, i, v); }
