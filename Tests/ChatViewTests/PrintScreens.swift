import Foundation
import Testing
@testable import ChatView

/// Writes the golden scenes to /tmp/chatview-goldens, to look at and paste into Goldens.swift:
/// `CHATVIEW_GOLDENS=1 swift test --skip-build --filter PrintScreens`.
@Suite struct PrintScreens {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CHATVIEW_GOLDENS"] != nil))
    func show() throws {
        let scenes: [(String, String)] = [
            ("deploy80x24", Scenes.deploy(short: true).screen),
            ("deploy40x12", Scenes.deploy(width: 40, height: 12).screen),
            ("wide", Scenes.wide().screen),
            ("ascii", Scenes.deploy(profile: RenderProfile(unicode: false, colors: 0, images: .none)).screen),
            ("group", Scenes.group().screen),
            ("dialogs80x24", Scenes.dialogs().screen),
            ("dialogs40x12", Scenes.dialogs(width: 40, height: 12).screen),
        ]
        var out = ""
        for (name, screen) in scenes { out += "=== \(name)\n\(screen)\n" }
        try out.write(toFile: "/tmp/chatview-goldens", atomically: true, encoding: .utf8)
    }
}
