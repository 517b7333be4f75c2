import Foundation
import Testing
import ChatView
import TestSupport
@testable import ChatctlCLI

/// The config's `chatView` section as the chat view's settings: each problem one line on
/// stderr naming the key, the rest taken, the view's defaults where nothing is said.
@Suite struct ChatViewSettingsConfigTests {
    func settings(_ config: String) throws -> (ChatViewSettings, String) {
        let directory = try TemporaryDirectory()
        let path = directory.file("config.json")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let io = CapturedIO()
        return (ChatViewSettings.read(configAt: path, io: io), io.err)
    }

    @Test func aConfigWithoutTheSectionIsTheViewsDefaults() throws {
        let (settings, err) = try settings(#"{"appId": 1}"#)
        #expect(settings == ChatViewSettings() && err.isEmpty)
    }

    @Test func theSectionBecomesTheSettings() throws {
        let (settings, err) = try settings("""
            {"chatView": {"avatars": "image", "nameLabels": false, "timeFormat": "h:mm a", "bubbles": false,
                          "colors": {"names": "red", "states": 244}, "notify": false}}
            """)
        #expect(err.isEmpty, "\(err)")
        #expect(settings.avatars == .image && !settings.nameLabels && settings.timeLabels && !settings.bubbles && !settings.notify)
        #expect(settings.timeFormat == TimeFormat(pattern: "h:mm a"))
        #expect(settings.colors == ViewColors(names: 1, states: 244))
    }

    @Test func aTimeFormatTheViewCannotReadIsOneLineAndTheDefault() throws {
        let (settings, err) = try settings(#"{"chatView": {"timeFormat": "x", "bubbles": false, "shape": "round"}}"#)
        #expect(err == """
            chatctl: config: chatView.shape: unknown key (known: avatars, nameLabels, timeLabels, timeFormat, bubbles, colors, notify); ignored
            chatctl: config: chatView.timeFormat: 'x' is not a time format (HH:mm, h:mm a, …); using HH:mm

            """)
        #expect(settings.timeFormat == .standard && !settings.bubbles)
    }
}
