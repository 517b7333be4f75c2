#include "ccurlshim.h"
#include "library_loading.h"
#include <pthread.h>

static library_loading loading = LIBRARY_LOADING("libcurl");
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
static curl_mime *(*p_mime_init)(CURL *);
static void (*p_mime_free)(curl_mime *);
static curl_mimepart *(*p_mime_addpart)(curl_mime *);
static CURLcode (*p_mime_name)(curl_mimepart *, const char *);
static CURLcode (*p_mime_filename)(curl_mimepart *, const char *);
static CURLcode (*p_mime_type)(curl_mimepart *, const char *);
static CURLcode (*p_mime_data)(curl_mimepart *, const char *, size_t);
static CURLcode (*p_mime_data_cb)(curl_mimepart *, curl_off_t, curl_read_callback, curl_seek_callback, curl_free_callback, void *);

static void load(void) {
    if (!library_open(&loading, "libcurl.so.4")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_global_init, "curl_global_init")
    SYM(p_easy_cleanup, "curl_easy_cleanup")
    SYM(p_easy_reset, "curl_easy_reset")
    SYM(p_easy_perform, "curl_easy_perform")
    SYM(p_easy_strerror, "curl_easy_strerror")
    SYM(p_slist_append, "curl_slist_append")
    SYM(p_slist_free_all, "curl_slist_free_all")
    SYM(p_easy_setopt, "curl_easy_setopt")
    SYM(p_easy_getinfo, "curl_easy_getinfo")
    SYM(p_mime_init, "curl_mime_init")
    SYM(p_mime_free, "curl_mime_free")
    SYM(p_mime_addpart, "curl_mime_addpart")
    SYM(p_mime_name, "curl_mime_name")
    SYM(p_mime_filename, "curl_mime_filename")
    SYM(p_mime_type, "curl_mime_type")
    SYM(p_mime_data, "curl_mime_data")
    SYM(p_mime_data_cb, "curl_mime_data_cb")
    SYM(p_easy_init, "curl_easy_init")
#undef SYM
    library_loaded(&loading);
}

int ccurl_load(void) { return library_load(&loading, load); }
const char *ccurl_load_error(void) { ccurl_load(); return library_error(&loading); }

CURLcode ccurl_global_init(long flags) { return ccurl_load() ? CURLE_FAILED_INIT : p_global_init(flags); }
CURL *ccurl_easy_init(void) { return ccurl_load() ? 0 : p_easy_init(); }
void ccurl_easy_cleanup(CURL *h) { if (!ccurl_load()) p_easy_cleanup(h); }
void ccurl_easy_reset(CURL *h) { if (!ccurl_load()) p_easy_reset(h); }
CURLcode ccurl_easy_perform(CURL *h) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_perform(h); }
const char *ccurl_easy_strerror(CURLcode c) { return ccurl_load() ? library_error(&loading) : p_easy_strerror(c); }
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
CURLcode ccurl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_getinfo(h, i, v); }
CURLcode ccurl_setopt_xferinfo_callback(CURL *h, ccurl_xferinfo_callback v) { return ccurl_load() ? CURLE_FAILED_INIT : p_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

curl_mime *ccurl_mime_init(CURL *h) { return ccurl_load() ? 0 : p_mime_init(h); }
void ccurl_mime_free(curl_mime *m) { if (!ccurl_load()) p_mime_free(m); }
curl_mimepart *ccurl_mime_addpart(curl_mime *m) { return ccurl_load() ? 0 : p_mime_addpart(m); }
CURLcode ccurl_mime_name(curl_mimepart *p, const char *n) { return ccurl_load() ? CURLE_FAILED_INIT : p_mime_name(p, n); }
CURLcode ccurl_mime_filename(curl_mimepart *p, const char *n) { return ccurl_load() ? CURLE_FAILED_INIT : p_mime_filename(p, n); }
CURLcode ccurl_mime_type(curl_mimepart *p, const char *t) { return ccurl_load() ? CURLE_FAILED_INIT : p_mime_type(p, t); }
CURLcode ccurl_mime_data(curl_mimepart *p, const char *d, size_t n) { return ccurl_load() ? CURLE_FAILED_INIT : p_mime_data(p, d, n); }
CURLcode ccurl_mime_data_cb(curl_mimepart *p, curl_off_t n, ccurl_data_callback r, ccurl_seek_callback s, void *u) {
    return ccurl_load() ? CURLE_FAILED_INIT : p_mime_data_cb(p, n, r, s, 0, u);
}
