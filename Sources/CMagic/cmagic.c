#include "cmagic.h"
#include <dlfcn.h>
#include <pthread.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libmagic not loaded yet";
static magic_t (*p_open)(int);
static void (*p_close)(magic_t);
static int (*p_load)(magic_t, const char *);
static const char *(*p_buffer)(magic_t, const void *, size_t);

static void load(void) {
    void *lib = dlopen("libmagic.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { load_error = dlerror(); return; }
#define SYM(var, name) if (!(*(void **)(&var) = dlsym(lib, name))) { load_error = "libmagic lacks " name; return; }
    SYM(p_close, "magic_close")
    SYM(p_load, "magic_load")
    SYM(p_buffer, "magic_buffer")
    SYM(p_open, "magic_open")
#undef SYM
    load_error = 0;
}

int cmagic_load(void) { pthread_once(&load_once, load); return load_error ? -1 : 0; }
const char *cmagic_load_error(void) { cmagic_load(); return load_error ? load_error : ""; }

magic_t cmagic_open(int flags) { return cmagic_load() ? 0 : p_open(flags); }
void cmagic_close(magic_t cookie) { if (!cmagic_load()) p_close(cookie); }
int cmagic_load_database(magic_t cookie, const char *path) { return cmagic_load() ? -1 : p_load(cookie, path); }
const char *cmagic_buffer(magic_t cookie, const void *buffer, size_t length) {
    return cmagic_load() ? 0 : p_buffer(cookie, buffer, length);
}
