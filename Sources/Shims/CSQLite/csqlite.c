// CSQLite has no code of its own: include/csqlite.h says why SQLite is linked
// statically. SwiftPM builds a C module from at least one source file.
#include "csqlite.h"
