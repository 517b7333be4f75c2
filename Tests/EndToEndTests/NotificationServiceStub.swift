import Foundation
import TestSupport

/// A session bus of the test's own (`dbus-run-session` with a config of ours) whose
/// org.freedesktop.Notifications is a stub in Debian's Python (python3-dbus, python3-gi):
/// started by D-Bus activation at the first call, so nothing waits for it to come up; it
/// answers GetCapabilities and GetServerInformation, and appends each Notify call to a
/// file as a JSON line. Without `service`, the bus has no notification service at all.
struct NotificationServiceStub {
    let directory: TemporaryDirectory
    /// One JSON object a Notify call: app_name, summary, body, category.
    var recordPath: String { directory.file("notifications.jsonl") }
    var configPath: String { directory.file("session.conf") }

    init(service: Bool = true, bodyMarkup: Bool = true) throws {
        directory = try TemporaryDirectory(prefix: "chatctl-dbus")
        let services = directory.file("services")
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try Self.script.write(toFile: directory.file("notifications.py"), atomically: true, encoding: .utf8)
        if service {
            try """
                [D-BUS Service]
                Name=org.freedesktop.Notifications
                Exec=/usr/bin/python3 \(directory.file("notifications.py")) \(recordPath) \(bodyMarkup ? "markup" : "plain")

                """.write(toFile: services + "/org.freedesktop.Notifications.service", atomically: true, encoding: .utf8)
        }
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(directory.path)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// `chatctl arguments` as `user`, inside the stub's session bus. dbus-run-session ends its
    /// bus with SIGTERM once chatctl exits; the test runner's threads block signals and a child
    /// inherits that, so the bus would outlive the test (holding its pipes): it starts unblocked.
    /// `hiding`: a file made empty for chatctl alone (bound over by /dev/null in a mount
    /// namespace of its own: we are root), as on a machine without that library.
    func background(_ user: ChatUser, _ arguments: [String], environment: [String: String] = [:],
                    hiding: String? = nil) throws -> ChildProcess {
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        let hider = hiding.map { ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", $0] } ?? []
        return try ChildProcess("/usr/bin/python3", ["-c", unblocked] + hider + ["/usr/bin/dbus-run-session", "--config-file=\(configPath)", "--",
                                                     productPath("chatctl")] + arguments,
                                environment: ["CHATCTL_CONFIG": user.cli.configPath, "CHATCTL_STATE_DIR": user.cli.stateDir.path + "/state"]
                                    .merging(environment) { $1 })
    }

    /// The Notify calls recorded so far.
    func notifications() throws -> [[String: String]] {
        guard FileManager.default.fileExists(atPath: recordPath) else { return [] }
        return try String(contentsOfFile: recordPath, encoding: .utf8).split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String] ?? [:]
        }
    }

    static let script = #"""
        # A stub of the desktop notification service (org.freedesktop.Notifications) for
        # chatctl's tests: records each Notify call as a JSON line in argv[1].
        # (Imports as `from`: RepositoryTests reads a line starting `import` in a Swift file as a module.)
        from json import dumps
        from sys import argv

        from dbus import SessionBus, UInt32, service
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        RECORD = argv[1]
        MARKUP = argv[2] == "markup"
        INTERFACE = "org.freedesktop.Notifications"


        class Notifications(service.Object):
            def __init__(self, bus):
                super().__init__(bus, "/org/freedesktop/Notifications")
                self.count = 0

            @service.method(INTERFACE, in_signature="", out_signature="as")
            def GetCapabilities(self):
                return ["body", "body-markup"] if MARKUP else ["body"]

            @service.method(INTERFACE, in_signature="", out_signature="ssss")
            def GetServerInformation(self):
                return ("chatctl-test-stub", "chatctl", "1.0", "1.2")

            @service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
            def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
                self.count += 1
                record = {"app_name": str(app_name), "summary": str(summary), "body": str(body),
                          "category": str(hints.get("category", ""))}
                with open(RECORD, "a", encoding="utf-8") as out:
                    out.write(dumps(record) + "\n")
                return UInt32(self.count)

            @service.method(INTERFACE, in_signature="u", out_signature="")
            def CloseNotification(self, notification_id):
                pass


        DBusGMainLoop(set_as_default=True)
        bus = SessionBus()
        # The object first, then the name: a call queued for the name finds the object there.
        notifications = Notifications(bus)
        name = service.BusName(INTERFACE, bus)
        GLib.MainLoop().run()
        """#
}
