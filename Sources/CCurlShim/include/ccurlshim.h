// Why this shim exists:
// 1. curl_easy_setopt and curl_easy_getinfo are variadic C functions, which
//    Swift cannot call: one non-variadic wrapper per argument type (as
//    swift-corelibs-foundation does) makes them callable.
// 2. Start-up time: linking libcurl drags in some 30 shared libraries (krb5,
//    ldap, sasl, p11-kit, ...) whose loading costs ~6 ms on every run, even
//    `chatctl --version`. The shim therefore loads libcurl with dlopen on the
//    first HTTP call; every libcurl function is reached through it.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// Loads libcurl (once). Returns 0 on success; otherwise every call below fails
/// (CURLE_FAILED_INIT / NULL) and ccurl_load_error() says why.
int ccurl_load(void);
const char *ccurl_load_error(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_double(CURL *handle, CURLINFO info, double *value);
#endif
