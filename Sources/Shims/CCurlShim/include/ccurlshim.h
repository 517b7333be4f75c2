// Why this shim exists:
// 1. curl_easy_setopt and curl_easy_getinfo are variadic C functions, which
//    Swift cannot call: one non-variadic wrapper per argument type (as
//    swift-corelibs-foundation does) makes them callable.
// 2. Start-up time: linking libcurl drags in some 30 shared libraries (krb5,
//    ldap, sasl, p11-kit, ...) whose loading costs ~6 ms on every run, even
//    `chatctl --version`. The shim therefore loads libcurl with dlopen on the
//    first HTTP call; every libcurl function is reached through it.
// 3. Streamed transfers: the mime API (curl_mime_*) builds a multipart/form-data
//    body whose file part is read through a callback, never held in memory.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*ccurl_seek_callback)(void *userdata, curl_off_t offset, int origin);
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

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
CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback value);

curl_mime *ccurl_mime_init(CURL *handle);
void ccurl_mime_free(curl_mime *mime);
curl_mimepart *ccurl_mime_addpart(curl_mime *mime);
CURLcode ccurl_mime_name(curl_mimepart *part, const char *name);
CURLcode ccurl_mime_filename(curl_mimepart *part, const char *filename);
CURLcode ccurl_mime_type(curl_mimepart *part, const char *type);
/// Copies `size` bytes of `data` into the part.
CURLcode ccurl_mime_data(curl_mimepart *part, const char *data, size_t size);
/// The part's `size` bytes come from `read` (and `seek`, when curl must rewind); no free callback.
CURLcode ccurl_mime_data_cb(curl_mimepart *part, curl_off_t size, ccurl_data_callback read, ccurl_seek_callback seek, void *userdata);
#endif
