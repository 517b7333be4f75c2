#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics

/// A named account kept side by side with others: its own config file,
/// `$XDG_CONFIG_HOME/chatctl/profiles/NAME.json`, and its own state (session,
/// message cache) in `STATE_DIR/profiles/NAME`. Without a profile, chatctl
/// uses `config.json` and the state directory itself.
package struct Profile: Sendable, Equatable {
    package let name: String

    /// Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a
    /// name that is one file name, never a path.
    package init(name: String) throws(Failure) {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        guard !name.isEmpty, name.count <= 64, allowed, let first = name.unicodeScalars.first,
              first.properties.isAlphabetic || ("0"..."9").contains(first) else {
            throw Failure(.invalidInput, "invalid profile name '\(name)'",
                                     hint: "use letters, digits, '.', '_' and '-', starting with a letter or digit")
        }
        self.name = name
    }

    /// `--profile`, then `CHATCTL_PROFILE`; nil when neither names one.
    package static func selected(explicit: String?, environment: [String: String]) throws(Failure) -> Profile? {
        if let explicit { return try Profile(name: explicit) }
        if let name = environment["CHATCTL_PROFILE"], !name.isEmpty { return try Profile(name: name) }
        return nil
    }

    /// Where profiles' config files live: `$XDG_CONFIG_HOME/chatctl/profiles`.
    package static func directory(environment: [String: String]) -> String {
        ClientConfig.configDirectory(environment: environment) + "/profiles"
    }

    package func configPath(environment: [String: String]) -> String {
        Self.directory(environment: environment) + "/\(name).json"
    }

    /// The profile's own part of a state directory.
    package func stateDirectory(in base: String) -> String {
        base + "/profiles/\(name)"
    }

    /// Every profile with a config file, by name.
    package static func all(environment: [String: String]) -> [Profile] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory(environment: environment))) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            .compactMap { name in try? Profile(name: name) }
    }
}
