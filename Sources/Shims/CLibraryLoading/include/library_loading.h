// Loading a C library on first use (dlopen), for the shims that do: CCurlShim,
// CCryptoShim, CStrophe, CMagic, CNcurses, CStbImage, CChafa. A command pays only
// for the libraries it uses (docs/architecture.md, "C modules"). Each shim keeps
// one `library_loading`, a `load` function that opens the library and looks up its
// symbols with the functions below, and calls `library_load` before each use.
#ifndef LIBRARY_LOADING_H
#define LIBRARY_LOADING_H
#include <pthread.h>

typedef struct library_loading {
    pthread_once_t once;
    /// The library's name for messages ("libcurl").
    const char *name;
    /// Why the library cannot be used; NULL once it is loaded with every symbol.
    const char *error;
    /// The loader's own words, copied: dlerror's text lasts only until the next
    /// failing dl call, another shim's say.
    char text[512];
    void *handle;
} library_loading;

/// The initial state: `static library_loading loading = LIBRARY_LOADING("libcurl");`
#define LIBRARY_LOADING(library) { PTHREAD_ONCE_INIT, library, library " not loaded yet", "", 0 }

/// Runs `load` once for all threads; 0 when the library is usable, else -1.
int library_load(library_loading *loading, void (*load)(void));
/// Why it is not usable, or "" when it is (after library_load).
const char *library_error(const library_loading *loading);

/// For `load`: opens `soname` (RTLD_NOW | RTLD_LOCAL). 1, or 0 with the error set.
int library_open(library_loading *loading, const char *soname);
/// For `load`: `symbol`'s address in the opened library (or one it needs) into
/// `*address`. 1, or 0 with the error "<name> lacks <symbol>".
int library_symbol(library_loading *loading, const char *symbol, void **address);
/// For `load`, last: every symbol was found.
void library_loaded(library_loading *loading);
#endif
