#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI
import Transfers

/// `chatctl download MESSAGE_ID|UID [-o PATH|-]`: saves a message's attachments,
/// or one file by its blob uid (docs/protocol.md §8).
struct DownloadCommand: Command {
    static let configuration = CommandConfiguration(
        name: "download",
        abstract: "Save a message's attachments, or a file by its uid.",
        discussion: """
            A message id (24 hex) saves every attachment of that message, each under its own name (made safe: \
            no path separators, no '..', no control characters, no leading dot) in the current directory or in \
            the directory -o names; the message comes from the cache, else from --dialog. Any other id is a \
            file's uid (history --json lists them under attachments), saved under that uid unless -o names it. \
            A file that exists is replaced only with --force. The bytes go to NAME.part first; an interrupted \
            download resumes from there when run again. Prints the path of each file saved.
            """,
        examples: [
            Example("Save a message's attachments here", "chatctl download 6560a3f1c2b4e90012ab34cd"),
            Example("Into a directory", "chatctl download 6560a3f1c2b4e90012ab34cd -o ~/Downloads/"),
            Example("A message's only file, to standard output", "chatctl download 6560a3f1c2b4e90012ab34cd -o - | file -"),
            Example("A file by its uid, with what was saved as JSON", "chatctl download 8f14e45fceea467fa0b5e4c2d1f0a9b8 --json"),
        ])

    @Argument("MESSAGE_ID|UID", help: "A message's 24-hex id (history --ids shows it), or a file's uid.")
    var target: DownloadTarget
    @Option("output", short: "o", metavar: "PATH",
            help: "Save to PATH: a file, a directory (several attachments need one), or - for standard output.",
            completion: .file)
    var output: String?
    @Option("dialog", metavar: "DIALOG", help: SharedHelp.messageDialog)
    var dialog: DialogReference?
    @Flag("force", help: "Replace files that exist.")
    var force: Bool
    @Flag("quiet", short: "q", help: "No progress bar on stderr.")
    var quiet: Bool
    @Flag("json", help: "A JSON line for each file saved: path, uid, name, size, message_id.")
    var json: Bool

    /// One file to save.
    struct Item {
        var uid: String
        /// The attachment's name as its sender gave it (nil for a bare uid).
        var name: String?
        /// Nil: standard output.
        var path: String?
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let isMessageID = target.mayBeMessage
        if output == "" { throw context.usage("-o needs a path, or - for standard output") }
        if dialog != nil && !isMessageID { throw context.usage("--dialog goes with a message id, not a file uid") }
        if json && output == "-" { throw context.usage("--json describes files saved; -o - writes the file itself to standard output") }
        let service = try context.messagingService(source: .server)

        // Which files: a message's attachments, or one uid.
        var files: [(uid: String, name: String?)]
        var fromMessage = false
        if isMessageID, let attachments = try service.attachments(ofMessage: target.text, in: dialog) {
            fromMessage = true
            files = []
            for (index, attachment) in attachments.enumerated() {
                guard let uid = attachment.id, !uid.isEmpty else {
                    throw Failure(.failure, "attachment \(index + 1) of message \(target) names no file (no id)")
                }
                files.append((uid, attachment.name))
            }
            guard !files.isEmpty else {
                throw Failure(.invalidInput, "message \(target) has no attachments")
            }
        } else {
            files = [(target.text, nil)]
        }

        let items = try plan(files, context: context)
        if !force, let existing = items.compactMap(\.path).first(where: { BlobDownloader.exists($0) }) {
            throw Failure(.invalidInput, "\(existing) exists", hint: "give --force to replace it")
        }
        let downloader = BlobDownloader(api: service.api)
        for item in items {
            let shown = item.name.map { SafeFileName.make($0, fallback: item.uid) } ?? item.uid
            let meter = ProgressMeter.make(name: shown, context: context, quiet: quiet)
            defer { meter?.finish() }
            do {
                if let path = item.path {
                    let size = try downloader.download(uid: item.uid, to: path, overwrite: force) { meter?.update($0) }
                    meter?.finish()
                    if json {
                        context.io.writeOut(JSONOutput.line(.object([
                            "path": .string(path), "uid": .string(item.uid), "name": item.name.map(JSONValue.string) ?? .null,
                            "size": .int(Int(size)), "message_id": fromMessage ? .string(target.text) : .null,
                        ])))
                    } else {
                        context.io.writeOut(path + "\n")
                    }
                } else {
                    guard let fd = context.io.standardOutputDescriptor else {
                        throw Failure(.failure, "standard output cannot take a file here")
                    }
                    try downloader.download(uid: item.uid, into: fd, description: "standard output") { meter?.update($0) }
                }
            } catch let error as Failure {
                // A bare 24-hex id that no message had: say both were tried.
                if isMessageID, !fromMessage, error.kind == .invalidInput, error.message.contains("no file with uid") {
                    throw Failure(
                        .invalidInput, "no message \(target) in the cache, and no file with that uid",
                        hint: "give the message's dialog with --dialog DIALOG")
                }
                throw error
            }
        }
        return .ok
    }

    /// Where each file goes: standard output, the file -o names, or a safe name in
    /// the directory -o names (or the current one); names made unique.
    private func plan(_ files: [(uid: String, name: String?)], context: CommandContext) throws -> [Item] {
        if output == "-" {
            guard files.count == 1 else {
                throw context.usage("message \(target) has \(files.count) attachments: give -o a directory, or download one by its uid")
            }
            return [Item(uid: files[0].uid, name: files[0].name, path: nil)]
        }
        var directory = "."
        if let output {
            if Self.isDirectory(output) || output.hasSuffix("/") {
                directory = output
            } else {
                guard files.count == 1 else {
                    throw context.usage("message \(target) has \(files.count) attachments: -o must name a directory")
                }
                return [Item(uid: files[0].uid, name: files[0].name, path: output)]
            }
        }
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        var taken: Set<String> = []
        return files.map { file in
            let name = Self.unique(SafeFileName.make(file.name, fallback: file.uid), taken: &taken)
            let path = directory == "." ? name : "\(directory)/\(name)"
            return Item(uid: file.uid, name: file.name, path: path)
        }
    }

    /// `photo.jpg`, then `photo-2.jpg`, `photo-3.jpg` for the same name again.
    static func unique(_ name: String, taken: inout Set<String>) -> String {
        var number = 1
        while taken.contains(SafeFileName.numbered(name, number)) { number += 1 }
        let candidate = SafeFileName.numbered(name, number)
        taken.insert(candidate)
        return candidate
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
