// Why this shim exists: curl_easy_setopt and curl_easy_getinfo are variadic C
// functions, which Swift cannot call. One non-variadic wrapper per argument
// type (as swift-corelibs-foundation does) makes them callable.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_double(CURL *handle, CURLINFO info, double *value);
#endif
