#include "library_loading.h"
#include <dlfcn.h>
#include <stdio.h>

int library_load(library_loading *loading, void (*load)(void)) {
    pthread_once(&loading->once, load);
    return loading->error ? -1 : 0;
}

const char *library_error(const library_loading *loading) { return loading->error ? loading->error : ""; }

int library_open(library_loading *loading, const char *soname) {
    loading->handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (loading->handle) return 1;
    const char *why = dlerror();
    snprintf(loading->text, sizeof loading->text, "%s", why ? why : "cannot load it");
    loading->error = loading->text;
    return 0;
}

int library_symbol(library_loading *loading, const char *symbol, void **address) {
    *address = dlsym(loading->handle, symbol);
    if (*address) return 1;
    snprintf(loading->text, sizeof loading->text, "%s lacks %s", loading->name, symbol);
    loading->error = loading->text;
    return 0;
}

void library_loaded(library_loading *loading) { loading->error = 0; }
