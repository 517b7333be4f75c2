// Why this shim exists: linking libsqlite3 made every chatctl run load it and
// resolve its ~1,600 symbols (it is built with BIND_NOW), ~0.2 ms of a 2 ms
// `--version` (issue 11), though help, `--version` and completion scripts never
// open a database. This module defines the SQLite functions SQLiteStore calls,
// under their own names, each forwarding through a pointer that the first call
// fills by loading libsqlite3 with dlopen (as CStrophe does libstrophe). The
// definitions are hidden: they never interpose on the real library.
#ifndef CSQLITE_H
#define CSQLITE_H
#include <sqlite3.h>

/// Loads libsqlite3 (once). Returns 0 on success; otherwise every SQLite call
/// fails (SQLITE_CANTOPEN, SQLITE_MISUSE, NULL, 0) and csqlite_load_error() says why.
int csqlite_load(void);
const char *csqlite_load_error(void);
#endif
