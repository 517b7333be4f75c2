#include "cmagic.h"
#include "library_loading.h"
#include <pthread.h>

static library_loading loading = LIBRARY_LOADING("libmagic");
static magic_t (*p_open)(int);
static void (*p_close)(magic_t);
static int (*p_load)(magic_t, const char *);
static const char *(*p_buffer)(magic_t, const void *, size_t);

static void load(void) {
    if (!library_open(&loading, "libmagic.so.1")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_close, "magic_close")
    SYM(p_load, "magic_load")
    SYM(p_buffer, "magic_buffer")
    SYM(p_open, "magic_open")
#undef SYM
    library_loaded(&loading);
}

int cmagic_load(void) { return library_load(&loading, load); }
const char *cmagic_load_error(void) { cmagic_load(); return library_error(&loading); }

magic_t cmagic_open(int flags) { return cmagic_load() ? 0 : p_open(flags); }
void cmagic_close(magic_t cookie) { if (!cmagic_load()) p_close(cookie); }
int cmagic_load_database(magic_t cookie, const char *path) { return cmagic_load() ? -1 : p_load(cookie, path); }
const char *cmagic_buffer(magic_t cookie, const void *buffer, size_t length) {
    return cmagic_load() ? 0 : p_buffer(cookie, buffer, length);
}
