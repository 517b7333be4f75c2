#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
// Hidden: these definitions serve this program's Swift only, never SQLite's own calls.
#pragma GCC visibility push(hidden)
#include "csqlite.h"

// Every SQLite function SQLiteStore calls: F(return type, name, parameters, arguments,
// value when SQLite cannot be loaded).
#define CSQLITE_FUNCTIONS(F) \
    F(int, sqlite3_open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs), \
      (*db = 0, SQLITE_CANTOPEN)) \
    F(int, sqlite3_close_v2, (sqlite3 *db), (db), SQLITE_MISUSE) \
    F(int, sqlite3_extended_result_codes, (sqlite3 *db, int onoff), (db, onoff), SQLITE_MISUSE) \
    F(int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms), SQLITE_MISUSE) \
    F(int, sqlite3_exec, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *argument, \
                          char **message), (db, sql, callback, argument, message), SQLITE_MISUSE) \
    F(int, sqlite3_extended_errcode, (sqlite3 *db), (db), SQLITE_MISUSE) \
    F(const char *, sqlite3_errmsg, (sqlite3 *db), (db), "SQLite is not loaded") \
    F(const char *, sqlite3_errstr, (int code), (code), "SQLite is not loaded") \
    F(int, sqlite3_system_errno, (sqlite3 *db), (db), 0) \
    F(int, sqlite3_get_autocommit, (sqlite3 *db), (db), 1) \
    F(int, sqlite3_db_readonly, (sqlite3 *db, const char *name), (db, name), -1) \
    F(sqlite3_int64, sqlite3_changes64, (sqlite3 *db), (db), 0) \
    F(sqlite3_int64, sqlite3_last_insert_rowid, (sqlite3 *db), (db), 0) \
    F(int, sqlite3_prepare_v3, (sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, \
                                const char **tail), (db, sql, bytes, flags, statement, tail), (*statement = 0, SQLITE_MISUSE)) \
    F(int, sqlite3_step, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE) \
    F(int, sqlite3_reset, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE) \
    F(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement), SQLITE_OK) \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE) \
    F(int, sqlite3_bind_parameter_count, (sqlite3_stmt *statement), (statement), 0) \
    F(int, sqlite3_bind_null, (sqlite3_stmt *statement, int index), (statement, index), SQLITE_MISUSE) \
    F(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value), SQLITE_MISUSE) \
    F(int, sqlite3_bind_double, (sqlite3_stmt *statement, int index, double value), (statement, index, value), SQLITE_MISUSE) \
    F(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
      (statement, index, text, bytes, destructor), SQLITE_MISUSE) \
    F(int, sqlite3_bind_blob, (sqlite3_stmt *statement, int index, const void *blob, int bytes, void (*destructor)(void *)), \
      (statement, index, blob, bytes, destructor), SQLITE_MISUSE) \
    F(int, sqlite3_column_count, (sqlite3_stmt *statement), (statement), 0) \
    F(const char *, sqlite3_column_name, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column), SQLITE_NULL) \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(double, sqlite3_column_double, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column), 0)

// The pointers, typed from sqlite3.h's own declarations so that they cannot drift.
#define POINTER(ret, name, params, args, fail) static __typeof__(name) *p_##name;
CSQLITE_FUNCTIONS(POINTER)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "SQLite not loaded yet";
// dlerror's text lasts only until the next failing dl call (another shim's, say).
static char load_error_text[512];

static void load(void) {
    void *lib = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error_text, sizeof load_error_text, "%s", dlerror());
        load_error = load_error_text;
        return;
    }
#define LOOK_UP(ret, name, params, args, fail) \
    if (!(*(void **)(&p_##name) = dlsym(lib, #name))) { load_error = "libsqlite3 lacks " #name; return; }
    CSQLITE_FUNCTIONS(LOOK_UP)
    load_error = 0;
}

int csqlite_load(void) { pthread_once(&load_once, load); return load_error ? -1 : 0; }
const char *csqlite_load_error(void) { csqlite_load(); return load_error ? load_error : ""; }

#define FORWARD(ret, name, params, args, fail) ret name params { return csqlite_load() ? (fail) : p_##name args; }
CSQLITE_FUNCTIONS(FORWARD)
#pragma GCC visibility pop
