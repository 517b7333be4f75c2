#include "cnotify.h"
#include "library_loading.h"
#include <stdio.h>
#include <string.h>

// The GLib types libnotify's functions take, by layout (GLib's ABI): gboolean, GError, GList.
typedef int gboolean;
typedef struct { unsigned int domain; int code; char *message; } cnotify_gerror;
typedef struct cnotify_glist { void *data; struct cnotify_glist *next, *prev; } cnotify_glist;
typedef void (*cnotify_log_func)(const char *domain, int level, const char *message, void *data);
// G_LOG_LEVEL_CRITICAL | WARNING, the failures; MESSAGE | INFO | DEBUG, its chatter.
enum { CNOTIFY_LOG_FAILURES = 8 | 16, CNOTIFY_LOG_LEVELS = 8 | 16 | 32 | 64 | 128 };

static library_loading loading = LIBRARY_LOADING("libnotify");
static gboolean (*p_init)(const char *);
static gboolean (*p_server_info)(char **, char **, char **, char **);
static cnotify_glist *(*p_server_caps)(void);
static void *(*p_new)(const char *, const char *, const char *);
static void (*p_set_category)(void *, const char *);
static gboolean (*p_show)(void *, cnotify_gerror **);
static void (*p_object_unref)(void *);
static void (*p_error_free)(cnotify_gerror *);
static void (*p_free)(void *);
static void (*p_list_free)(cnotify_glist *);
static unsigned (*p_log_set_handler)(const char *, int, cnotify_log_func, void *);
static gboolean (*p_context_iteration)(void *, gboolean);
static void *(*p_bus_get_sync)(int, void *, cnotify_gerror **);
static void *(*p_connection_call_sync)(void *, const char *, const char *, const char *, const char *, void *, void *, int, int,
                                       void *, cnotify_gerror **);
static void (*p_variant_unref)(void *);

static char error_text[512];

static void set_error(const char *text) { snprintf(error_text, sizeof error_text, "%s", text); }

// libnotify says why it cannot reach the bus with g_warning, which GLib would print on
// stderr as "(process:…): libnotify-WARNING **: …": kept as the reason for our one line
// instead; its debug lines are dropped.
static void keep_warning(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)data;
    if (message && (level & CNOTIFY_LOG_FAILURES)) set_error(message);
}

static void load(void) {
    if (!library_open(&loading, "libnotify.so.4")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_init, "notify_init")
    SYM(p_server_info, "notify_get_server_info")
    SYM(p_server_caps, "notify_get_server_caps")
    SYM(p_new, "notify_notification_new")
    SYM(p_set_category, "notify_notification_set_category")
    SYM(p_show, "notify_notification_show")
    // GLib's, found through libnotify's own dependencies.
    SYM(p_object_unref, "g_object_unref")
    SYM(p_error_free, "g_error_free")
    SYM(p_free, "g_free")
    SYM(p_list_free, "g_list_free")
    SYM(p_log_set_handler, "g_log_set_handler")
    SYM(p_context_iteration, "g_main_context_iteration")
    SYM(p_bus_get_sync, "g_bus_get_sync")
    SYM(p_connection_call_sync, "g_dbus_connection_call_sync")
    SYM(p_variant_unref, "g_variant_unref")
#undef SYM
    p_log_set_handler("libnotify", CNOTIFY_LOG_LEVELS, keep_warning, 0);
    library_loaded(&loading);
}

int cnotify_load(void) {
    if (library_load(&loading, load) == 0) return 0;
    set_error(library_error(&loading));
    return -1;
}

const char *cnotify_error(void) { return error_text; }

int cnotify_connect(const char *app_name, int *body_markup) {
    *body_markup = 0;
    if (cnotify_load()) return -1;
    error_text[0] = 0;
    if (!p_init(app_name)) { set_error("notify_init failed"); return -1; }
    // The service asked first through GIO itself (libnotify's own call fails without saying
    // why), within 5 s: the bus connection is GIO's shared one, which libnotify then uses.
    cnotify_gerror *error = 0;
    void *bus = p_bus_get_sync(2 /* G_BUS_TYPE_SESSION */, 0, &error);
    if (bus) {
        void *answer = p_connection_call_sync(bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                              "org.freedesktop.Notifications", "GetServerInformation", 0, 0,
                                              0 /* G_DBUS_CALL_FLAGS_NONE */, 5000, 0, &error);
        if (answer) p_variant_unref(answer);
        p_object_unref(bus);
    }
    if (error) {
        set_error(error->message ? error->message : "the session bus failed");
        p_error_free(error);
        return bus ? -1 : -2;
    }
    char *name = 0, *vendor = 0, *version = 0, *spec = 0;
    if (!p_server_info(&name, &vendor, &version, &spec)) {
        if (!error_text[0]) set_error("it did not say who it is");
        return -1;
    }
    p_free(name); p_free(vendor); p_free(version); p_free(spec);
    cnotify_glist *caps = p_server_caps();
    for (cnotify_glist *item = caps; item; item = item->next) {
        if (item->data && strcmp(item->data, "body-markup") == 0) *body_markup = 1;
        p_free(item->data);
    }
    p_list_free(caps);
    return 0;
}

int cnotify_show(const char *summary, const char *body, const char *category) {
    if (cnotify_load()) return -1;
    error_text[0] = 0;
    void *notification = p_new(summary, body, 0);
    if (!notification) { set_error("notify_notification_new failed"); return -1; }
    if (category) p_set_category(notification, category);
    cnotify_gerror *error = 0;
    gboolean shown = p_show(notification, &error);
    if (!shown) set_error(error && error->message ? error->message : "the notification service refused it");
    if (error) p_error_free(error);
    p_object_unref(notification);
    // The service's signals (a notification closed) queue on GLib's default context, which
    // nothing else runs: dispatched here, so they do not pile up in a long listen.
    while (p_context_iteration(0, 0)) {}
    return shown ? 0 : -1;
}
