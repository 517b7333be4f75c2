import AuthFlow
import CommandLineKit
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl me set`: change your name, email, phone, website, tags, custom data,
/// avatar or password.
struct ProfileSetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change your user: name, email, phone, website, tags, custom data, avatar, password.",
        discussion: """
            Only what is given changes; an empty value ('') clears a field. --avatar uploads the picture as a \
            public file and makes it your avatar (the old one is deleted); --no-avatar removes it. --password \
            asks for the current and the new password on a terminal; a script gives both, the current on the \
            first line and the new on the second, with --password-file PATH or --password-stdin. The password \
            changes last, after everything else given, and the session is renewed with it.
            """,
        examples: [
            Example("Change your display name", "chatctl me set --full-name 'Alice Liddell'"),
            Example("A new avatar", "chatctl me set --avatar ~/me.png"),
            Example("Change your password from a script: the file holds the current one, then the new", "chatctl me set --password --password-file ~/pw-change"),
        ])

    @Option("full-name", metavar: "NAME", help: "Your display name.")
    var fullName: String?
    @Option("email", metavar: "ADDRESS", help: "Your email address.")
    var email: String?
    @Option("phone", metavar: "NUMBER", help: "Your phone number.")
    var phone: String?
    @Option("website", metavar: "URL", help: "Your website.")
    var website: String?
    @Option("tags", metavar: "A,B", help: "Your tags, comma-separated ('' for none).")
    var tags: String?
    @Option("custom-data", metavar: "JSON", help: "Custom data (a JSON text, kept as given).")
    var customData: String?
    @Option("avatar", metavar: "FILE", help: "A picture to make your avatar.")
    var avatar: String?
    @Flag("no-avatar", help: "Remove your avatar.")
    var noAvatar: Bool
    @Flag("password", help: "Change your password (asked on a terminal; for scripts see --password-stdin).")
    var password: Bool
    @Flag("password-stdin", help: "With --password: read the current and the new password, one a line, from standard input.")
    var passwordStdin: Bool
    @Flag("json", help: "Print your QuickBlox user object afterwards.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        if avatar != nil && noAvatar { throw context.usage("--avatar and --no-avatar cannot be used together") }
        if passwordStdin && !password { throw context.usage("--password-stdin goes with --password") }
        if let fullName, !fullName.isEmpty, !CredentialRules.isValidDisplayName(fullName) {
            throw Failure(.invalidInput, "'\(TerminalText.sanitize(fullName, newlines: .asSpaces))' is not a valid display name",
                          hint: CredentialRules.displayNameHint)
        }
        if let customData, !customData.isEmpty, (try? JSONValue(parsing: customData)) == nil {
            throw Failure(.invalidInput, "--custom-data is not JSON", hint: "give a JSON text, e.g. --custom-data '{\"team\":\"ops\"}'")
        }
        let tagList = tags.map { $0.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty } }
        let update = QBUserUpdate(fullName: fullName, email: email, phone: phone, website: website, customData: customData, tags: tagList)
        guard !update.isEmpty || avatar != nil || noAvatar || password else {
            throw context.usage("nothing to change: give --full-name, --email, --phone, --website, --tags, --custom-data, --avatar, --no-avatar or --password")
        }
        // Everything is checked before anything changes or any password is typed: the picture, the session.
        let picture = try avatar.map { path throws in try context.uploadSource(path, name: nil) }
        let service = try context.messagingSession(source: .server).service
        let passwords = password ? try readPasswords(context) : nil
        var user = update.isEmpty ? nil : try service.updateProfile(update)
        if let picture {
            let (changed, left) = try service.setAvatar(picture)
            user = changed
            if let left { context.io.warn("warning: \(left.message)") }
        } else if noAvatar {
            let (changed, left) = try service.removeAvatar()
            user = changed
            if let left { context.io.warn("warning: \(left.message)") }
        }
        // The password last, alone: what failed before it leaves it as it was.
        if let passwords {
            user = try service.updateProfile(QBUserUpdate(oldPassword: passwords.old, password: passwords.new))
            do { try renewSession(password: passwords.new, context) } catch let failure as Failure {
                throw Failure(failure.kind, "password changed; \(failure.message)", hint: "log in with the new password: chatctl login")
            }
        }
        if let user {
            context.tellChange("changed your " + changes.joined(separator: ", "), json: json ? JSONOutput.line(.object(user.raw)) : nil)
        }
        return .ok
    }

    /// What this run changes, as the line that says so lists it: `full name to 'Carol Danvers'`,
    /// `email (cleared)`, `avatar`, `password`.
    var changes: [String] {
        let given: [(String, String?)] = [("full name", fullName), ("email", email), ("phone", phone), ("website", website),
                                          ("tags", tags), ("custom data", customData)]
        var said = given.compactMap { field, value in
            value.map { $0.isEmpty ? "\(field) (cleared)" : "\(field) to '\($0)'" }
        }
        if avatar != nil { said.append("avatar") }
        if noAvatar { said.append("avatar (removed)") }
        if password { said.append("password") }
        return said
    }

    /// The current and the new password: asked on a terminal (the new one twice), else two
    /// lines of --password-file or standard input. The new one follows the sign-up's rule.
    private func readPasswords(_ context: CommandContext) throws -> (old: String, new: String) {
        var old: String?, new: String?
        if passwordStdin && context.globals.passwordFile != nil {
            throw context.usage("--password-stdin and --password-file cannot be used together")
        }
        if let bytes = try context.passwordFileBytes() {
            (old, new) = Self.twoLines(bytes)
        } else if passwordStdin {
            guard let bytes = context.io.readAllInput() else { throw Failure(.invalidInput, "cannot read the passwords from standard input") }
            (old, new) = Self.twoLines(bytes)
        } else if context.io.stdinIsTerminal {
            old = context.io.readSecret(prompt: "Current password: ")
            new = context.io.readSecret(prompt: "New password: ")
            if let new, context.io.readSecret(prompt: "New password again: ") != new {
                throw Failure(.invalidInput, "the new passwords differ", hint: "type the same new password twice")
            }
        }
        guard let old, !old.isEmpty, let new, !new.isEmpty else {
            throw context.usage("--password needs the current and the new password: on a terminal, or two lines (current, new) with --password-file PATH or --password-stdin")
        }
        guard CredentialRules.isValidPassword(new) else {
            throw Failure(.invalidInput, "the new password is not a valid password", hint: CredentialRules.passwordHint)
        }
        return (old, new)
    }

    static func twoLines(_ bytes: [UInt8]) -> (String?, String?) {
        // "\r\n" is one Character: both line ends split.
        let lines = String(decoding: bytes, as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        return (lines.first, lines.count > 1 ? lines[1] : nil)
    }

    /// A session opened with the new password now, saved for the next commands.
    private func renewSession(password: String, _ context: CommandContext) throws {
        let keeper = try context.sessionKeeper()
        let (live, _) = try keeper.liveSession(checked: .byFirstRequest) { _ in password }
        let old = live.stored.token
        do { try live.renew(withPassword: password) } catch {
            throw Failure(describing: error, doing: "open a session with the new password")
        }
        // The session opened with the old password ends: nothing it unlocked outlives the change.
        try? keeper.makeClient(token: old).deleteSession()
    }
}
