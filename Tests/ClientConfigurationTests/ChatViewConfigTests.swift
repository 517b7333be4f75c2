import Testing
@testable import ClientConfiguration
import QuickBloxAPI

/// The config's `chatView` section: what it sets, and a problem in it is one line naming
/// the key while that key keeps its default (the view still opens).
@Suite struct ChatViewConfigTests {
    func parse(_ json: String) throws -> (ChatViewConfig, warnings: [String]) {
        ChatViewConfig.parse(try JSONValue(parsing: json))
    }

    @Test func noSectionIsTheDefaultsAndNoWarning() throws {
        let (config, warnings) = ChatViewConfig.parse(nil)
        #expect(config == ChatViewConfig() && warnings.isEmpty)
        #expect(config.avatars == .none && config.nameLabels && config.timeLabels && config.bubbles && config.notify)
        #expect(config.timeFormat == "HH:mm" && config.colors.isEmpty)
    }

    @Test func everyKeyIsRead() throws {
        let (config, warnings) = try parse("""
            {"avatars": "image", "nameLabels": false, "timeLabels": false, "timeFormat": "h:mm a", "bubbles": false,
             "colors": {"incoming": 246, "outgoing": "blue", "names": "bright-magenta", "times": "244", "states": 0}, "notify": false}
            """)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config.avatars == .image && !config.nameLabels && !config.timeLabels && !config.bubbles && !config.notify)
        #expect(config.timeFormat == "h:mm a")
        #expect(config.colors == ["incoming": 246, "outgoing": 4, "names": 13, "times": 244, "states": 0])
    }

    @Test(arguments: [
        (#"{"avatar": "image"}"#, "chatView.avatar: unknown key (known: avatars, nameLabels, timeLabels, timeFormat, bubbles, colors, notify); ignored"),
        (#"{"avatars": "pictures"}"#, "chatView.avatars: 'pictures' is not one of image, initials, none; using none"),
        (#"{"bubbles": "no"}"#, "chatView.bubbles: must be true or false; using true"),
        (#"{"notify": null}"#, "chatView.notify: must be true or false; using true"),
        (#"{"timeFormat": 24}"#, "chatView.timeFormat: must be a time format (HH:mm, h:mm a, …); using HH:mm"),
        (#"{"colors": {"names": "pink"}}"#, "chatView.colors.names: 'pink' is not a colour (0–255, or a name: red, bright-blue, …); using the theme's"),
        (#"{"colors": {"names": 256}}"#, "chatView.colors.names: 256 is not a colour (0–255, or a name: red, bright-blue, …); using the theme's"),
        (#"{"colors": {"borders": 1}}"#, "chatView.colors.borders: unknown key (known: incoming, outgoing, names, times, states); ignored"),
        (#"{"colors": [1, 2]}"#, "chatView.colors: must be an object (incoming, outgoing, names, times, states); using the theme's"),
        (#""compact""#, "chatView: must be an object; using the defaults"),
    ])
    func aProblemIsOneLineNamingTheKeyAndTheDefaultStays(json: String, line: String) throws {
        let (config, warnings) = try parse(json)
        #expect(warnings == [line])
        #expect(config == ChatViewConfig(), "the defaults kept")
    }

    @Test func aBadKeyLeavesTheGoodOnesBesideIt() throws {
        let (config, warnings) = try parse(#"{"bubbles": false, "avatars": 3, "colours": {}, "nameLabels": false}"#)
        #expect(warnings.count == 2 && warnings[0].hasPrefix("chatView.avatars:") && warnings[1].hasPrefix("chatView.colours:"),
                "one line each, in key order: \(warnings)")
        #expect(!config.bubbles && !config.nameLabels && config.avatars == .none)
    }

    @Test func theSectionComesFromTheConfigFile() throws {
        let root = try JSONValue(parsing: #"{"appId": 1, "chatView": {"avatars": "initials"}}"#)
        let (config, warnings) = ConfigFile(path: "/tmp/config.json", root: root).chatView()
        #expect(config.avatars == .initials && warnings.isEmpty)
    }
}
