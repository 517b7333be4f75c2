// Why this shim exists: `listen --notify` posts desktop notifications through libnotify
// (Debian libnotify4), but linking it, with the GLib, GIO and gdk-pixbuf it brings, would
// cost every chatctl run its start-up (StartupLibrariesTests); it is loaded with dlopen
// when --notify asks, as CMagic loads libmagic. The few functions used are declared in
// cnotify.c from libnotify's stable ABI (soname libnotify.so.4), so building needs
// neither libnotify-dev nor the gdk-pixbuf headers it pulls in, and no GLib type reaches Swift.
#ifndef CNOTIFY_H
#define CNOTIFY_H

/// Loads libnotify (once). 0, or -1 with cnotify_error() saying why.
int cnotify_load(void);
/// notify_init(app_name), then the service's information (at most 5 s) and capabilities over
/// the session bus (D-Bus activation may start it): 0 when a notification service answers, with
/// `*body_markup` 1 when it reads the body as markup; else -1 with cnotify_error(), or -2 when
/// the session bus itself cannot be reached.
int cnotify_connect(const char *app_name, int *body_markup);
/// Posts one notification (summary, body, the spec's category or NULL): 0, or -1 with cnotify_error().
int cnotify_show(const char *summary, const char *body, const char *category);
/// Why the last call failed; "" when it did not. Not thread-safe: one thread notifies.
const char *cnotify_error(void);
#endif
