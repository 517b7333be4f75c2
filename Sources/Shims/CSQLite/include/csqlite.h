// SQLite for SQLiteStore, linked statically from Debian's libsqlite3-dev
// (libsqlite3.a, the same build as its libsqlite3.so): no library to load or
// resolve at run time. Loaded with dlopen instead, the shared library's ~1,600
// symbol relocations (it is built with BIND_NOW) cost each offline query about a
// sixth of its instructions; linked in the usual way, every command paid them,
// `--version` too. Linked in, the code is only read from disk by the commands
// that open a database. Why start-up counts: docs/speed.md.
#ifndef CSQLITE_H
#define CSQLITE_H
#include <sqlite3.h>
#endif
