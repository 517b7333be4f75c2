#if canImport(Glibc)
import Glibc
#endif
internal import CNotify

/// Desktop notifications through the session's notification service (the freedesktop.org
/// notification spec over D-Bus), by libnotify, loaded only when `listen --notify` asks
/// (CNotify). The one Swift file that touches CNotify. Used by one thread, listen's own.
final class DesktopNotifier {
    /// Whether the service reads a body as markup (its `body-markup` capability): then the
    /// body is escaped (`DesktopNotice`), else sent as it is.
    let bodyMarkup: Bool
    /// The first failure to post one was told; later ones are not.
    private var failureTold = false

    private init(bodyMarkup: Bool) { self.bodyMarkup = bodyMarkup }

    /// Connects to the notification service of the session in `environment`; nil and why
    /// not (one line's words) when there is no session bus, no libnotify, or no service.
    /// Without a session bus address libnotify is not even loaded: GLib would try to
    /// start a bus of its own (dbus-launch) where X11 is about.
    static func connect(environment: [String: String]) -> (DesktopNotifier?, reason: String?) {
        guard hasSessionBus(environment) else {
            return (nil, "no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        if cnotify_load() != 0 {
            return (nil, "libnotify cannot be loaded (\(String(cString: cnotify_error()))); install libnotify4")
        }
        var markup: Int32 = 0
        let connected = cnotify_connect("chatctl", &markup)
        guard connected == 0 else {
            let why = String(cString: cnotify_error())
            let what = connected == -2 ? "the D-Bus session cannot be reached" : "no notification service answers on the D-Bus session"
            return (nil, what + (why.isEmpty ? "" : " (\(why))"))
        }
        return (DesktopNotifier(bodyMarkup: markup != 0), nil)
    }

    /// DBUS_SESSION_BUS_ADDRESS, or the socket systemd's user session keeps at $XDG_RUNTIME_DIR/bus,
    /// which GLib uses when the variable is unset.
    static func hasSessionBus(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat(runtime + "/bus", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Posts `notice`; the first failure's words are returned (to be told once), later ones nil.
    func post(_ notice: DesktopNotice) -> String? {
        guard cnotify_show(notice.title, notice.body, DesktopNotice.category) != 0, !failureTold else { return nil }
        failureTold = true
        return String(cString: cnotify_error())
    }
}

@available(*, unavailable)
extension DesktopNotifier: Sendable {}
