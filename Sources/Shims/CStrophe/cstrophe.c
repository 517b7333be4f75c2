#include "library_loading.h"
#include <pthread.h>
#include <stdio.h>
// Hidden: these definitions serve this program's Swift only, never libstrophe's own calls.
#pragma GCC visibility push(hidden)
#include "cstrophe.h"

// Every libstrophe function XMPPTransport calls: F(return type, name, parameters,
// arguments, value when libstrophe cannot be loaded), V(...) for void ones.
#define CSTROPHE_FUNCTIONS(F, V) \
    V(xmpp_initialize, (void), ()) \
    F(xmpp_ctx_t *, xmpp_ctx_new, (const xmpp_mem_t *mem, const xmpp_log_t *log), (mem, log), 0) \
    V(xmpp_ctx_free, (xmpp_ctx_t *ctx), (ctx)) \
    V(xmpp_run_once, (xmpp_ctx_t *ctx, unsigned long timeout), (ctx, timeout)) \
    F(xmpp_conn_t *, xmpp_conn_new, (xmpp_ctx_t *ctx), (ctx), 0) \
    F(int, xmpp_conn_release, (xmpp_conn_t *conn), (conn), 0) \
    F(int, xmpp_conn_set_flags, (xmpp_conn_t *conn, long flags), (conn, flags), XMPP_EINT) \
    V(xmpp_conn_set_jid, (xmpp_conn_t *conn, const char *jid), (conn, jid)) \
    V(xmpp_conn_set_pass, (xmpp_conn_t *conn, const char *pass), (conn, pass)) \
    V(xmpp_conn_set_cafile, (xmpp_conn_t *const conn, const char *path), (conn, path)) \
    V(xmpp_conn_set_certfail_handler, (xmpp_conn_t *const conn, xmpp_certfail_handler handler), (conn, handler)) \
    V(xmpp_conn_set_sockopt_callback, (xmpp_conn_t *conn, xmpp_sockopt_callback callback), (conn, callback)) \
    F(const char *, xmpp_conn_get_bound_jid, (const xmpp_conn_t *conn), (conn), 0) \
    F(int, xmpp_conn_is_secured, (xmpp_conn_t *conn), (conn), 0) \
    F(int, xmpp_connect_client, (xmpp_conn_t *conn, const char *altdomain, unsigned short altport, \
                                 xmpp_conn_handler callback, void *userdata), \
      (conn, altdomain, altport, callback, userdata), XMPP_EINT) \
    V(xmpp_disconnect, (xmpp_conn_t *conn), (conn)) \
    V(xmpp_send_raw, (xmpp_conn_t *conn, const char *data, size_t len), (conn, data, len)) \
    V(xmpp_handler_add, (xmpp_conn_t *conn, xmpp_handler handler, const char *ns, const char *name, \
                         const char *type, void *userdata), (conn, handler, ns, name, type, userdata)) \
    F(xmpp_conn_t *, xmpp_tlscert_get_conn, (const xmpp_tlscert_t *cert), (cert), 0) \
    F(xmpp_stanza_t *, xmpp_stanza_new_from_string, (xmpp_ctx_t *ctx, const char *str), (ctx, str), 0) \
    F(int, xmpp_stanza_release, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(int, xmpp_stanza_is_text, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(int, xmpp_stanza_is_tag, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(xmpp_stanza_t *, xmpp_stanza_get_children, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(xmpp_stanza_t *, xmpp_stanza_get_next, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(const char *, xmpp_stanza_get_name, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(const char *, xmpp_stanza_get_ns, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(const char *, xmpp_stanza_get_text_ptr, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(int, xmpp_stanza_get_attribute_count, (xmpp_stanza_t *stanza), (stanza), 0) \
    F(int, xmpp_stanza_get_attributes, (xmpp_stanza_t *stanza, const char **attr, int attrlen), \
      (stanza, attr, attrlen), 0)

// The pointers, typed from strophe.h's own declarations so that they cannot drift.
#define POINTER(ret, name, params, args, fail) static __typeof__(name) *p_##name;
#define VOID_POINTER(name, params, args) static __typeof__(name) *p_##name;
CSTROPHE_FUNCTIONS(POINTER, VOID_POINTER)

static library_loading loading = LIBRARY_LOADING("libstrophe");

static void load(void) {
    if (!library_open(&loading, "libstrophe.so.0")) return;
#define LOOK_UP(name) if (!library_symbol(&loading, #name, (void **)&p_##name)) return;
#define LOOK_UP_F(ret, name, params, args, fail) LOOK_UP(name)
#define LOOK_UP_V(name, params, args) LOOK_UP(name)
    CSTROPHE_FUNCTIONS(LOOK_UP_F, LOOK_UP_V)
    library_loaded(&loading);
}

int cstrophe_load(void) { return library_load(&loading, load); }
const char *cstrophe_load_error(void) { cstrophe_load(); return library_error(&loading); }

#define FORWARD(ret, name, params, args, fail) ret name params { return cstrophe_load() ? (fail) : p_##name args; }
#define FORWARD_VOID(name, params, args) void name params { if (!cstrophe_load()) p_##name args; }
CSTROPHE_FUNCTIONS(FORWARD, FORWARD_VOID)
#pragma GCC visibility pop
