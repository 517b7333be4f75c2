#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
import CommandLineKit
import Diagnostics
import Presentation
import QuickBloxAPI

/// `chatctl profiles`: the accounts kept side by side, and who is logged in
/// to each; from the files alone, no network.
struct ProfilesCommand: Command {
    static let configuration = CommandConfiguration(
        name: "profiles",
        abstract: "List the config profiles (--profile NAME), accounts kept side by side, and who is logged in to each.",
        discussion: """
            Not your user's details: those are 'chatctl me'. \
            A profile is an account kept beside the others: its config is \
            profiles/NAME.json in the config directory \
            ($XDG_CONFIG_HOME/chatctl, ~/.config/chatctl), its session and \
            message cache live in profiles/NAME in the state directory. Select \
            one with --profile NAME or $CHATCTL_PROFILE; without, chatctl uses \
            config.json. The selected one is marked '*'.

            In a pipe, a line a profile, tab-separated, no header: name (empty for config.json), * or \
            empty, login (empty when logged out), user id, when the session expires (ISO 8601 UTC), config \
            file, what is wrong with it (or empty).
            """,
        examples: [
            Example("The accounts kept here, and who is logged in to each", "chatctl profiles"),
            Example("The same, with work selected (it is marked '*')", "CHATCTL_PROFILE=work chatctl profiles"),
            Example("As JSON", "chatctl profiles --json"),
        ])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    struct Row {
        var name: String?
        var configPath: String
        var selected: Bool
        var session: StoredSession?
        var problem: String?
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let selected = try context.profile()
        let base = SessionStore.resolveDirectory(explicit: context.globals.stateDir, environment: context.environment)
        var rows: [Row] = []
        let defaultPath = ClientConfig.resolvePath(explicit: nil, environment: context.environment)
        if FileManager.default.fileExists(atPath: defaultPath) {
            rows.append(row(name: nil, configPath: defaultPath, stateDirectory: base, selected: selected == nil))
        }
        for profile in Profile.all(environment: context.environment) {
            rows.append(row(name: profile.name, configPath: profile.configPath(environment: context.environment),
                            stateDirectory: profile.stateDirectory(in: base), selected: selected == profile))
        }
        if json {
            context.io.writeOut(JSONOutput.line(.array(rows.map(Self.object))))
            return .ok
        }
        if rows.isEmpty {
            context.io.writeErr("chatctl: no profiles and no \(defaultPath) (copy \(ExampleConfig.path() ?? "config.example.json") there, or to \(Profile.directory(environment: context.environment))/NAME.json)\n")
            return .ok
        }
        let now = Date().timeIntervalSince1970
        let layout = context.listingLayout
        if layout == .tabSeparated {
            context.io.writeOut(Listing.tabSeparated(rows.map(Self.fields)))
            return .ok
        }
        var table = [["", "PROFILE", "LOGGED IN AS", "EXPIRES", "CONFIG"]]
        for row in rows {
            let who: String
            if let problem = row.problem { who = problem }
            else if let session = row.session {
                who = TerminalText.sanitize(session.login ?? "user \(session.userId)", newlines: .asSpaces)
                    + (session.isExpired(now: now) ? " (expired)" : "")
            } else { who = "-" }
            table.append([row.selected ? "*" : "", row.name ?? "(default)", who,
                          row.session.map { TimeText.relative($0.expiresAt, now: now) } ?? "", row.configPath])
        }
        context.io.writeOut(Table.render(table, width: context.terminalWidth))
        return .ok
    }

    /// A profile's fields in a pipe: exact values where the table has words for people.
    static func fields(_ row: Row) -> [String] {
        [row.name ?? "", row.selected ? "*" : "", TerminalText.sanitize(row.session?.login ?? "", newlines: .asSpaces),
         row.session.map { String($0.userId) } ?? "", row.session.map { TimeText.iso8601($0.expiresAt) } ?? "",
         row.configPath, TerminalText.sanitize(row.problem ?? "", newlines: .asSpaces)]
    }

    /// One account's config and saved session, read without the network.
    func row(name: String?, configPath: String, stateDirectory: String, selected: Bool) -> Row {
        var row = Row(name: name, configPath: configPath, selected: selected)
        let config: ClientConfig
        do {
            // Endpoints left to the account key: those an earlier command looked up, if any.
            let file = try ConfigFile.read(configPath)
            var found: LookedUpEndpoints?
            if let lookup = try file.endpointLookup() {
                found = AccountSettingsCache(directory: stateDirectory).cached(lookup)
                if found == nil {
                    row.problem = "endpoints not looked up yet"
                    return row
                }
            }
            config = try file.config(lookedUp: found)
        } catch {
            row.problem = "bad config: \(error.message)"
            return row
        }
        do { row.session = try SessionStore(directory: stateDirectory, key: config.sessionKey).load() } catch {
            row.problem = error.message
        }
        return row
    }

    static func object(_ row: Row) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": row.name.map(JSONValue.string) ?? .null,
            "config": .string(row.configPath),
            "selected": .bool(row.selected),
            "logged_in": .bool(row.session != nil),
        ]
        if let session = row.session {
            object["login"] = session.login.map(JSONValue.string) ?? .null
            object["user_id"] = .int(session.userId)
            object["expires_at"] = .string(TimeText.iso8601(session.expiresAt))
        }
        if let problem = row.problem { object["problem"] = .string(problem) }
        return .object(object)
    }
}
