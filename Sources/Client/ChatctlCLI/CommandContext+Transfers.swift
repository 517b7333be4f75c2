#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import Diagnostics
import Transfers

/// Files to upload from a command (`send --attach`): sources checked before
/// anything is sent or queued, and the outbox's place for the files it keeps.
extension CommandContext {
    /// What `PATH` names for an upload: a file, or standard input for `-`
    /// (named `name`, else "stdin"). Pipes are copied into the state directory,
    /// or with `keepingIn` into that directory, where the copy stays (`spoolPath`).
    func uploadSource(_ path: String, name: String?, keepingIn directory: String? = nil) throws -> UploadSource {
        let spool = try directory ?? stateDirectory()
        do { try PrivateFiles.ensureDirectory(spool) } catch {
            throw Failure(.failure, "cannot use the state directory: \(error)")
        }
        return try UploadSource.at(path, name: name, spoolDirectory: spool, keepingSpool: directory != nil)
    }

    /// Where the outbox keeps the files of messages waiting to be sent (`send
    /// --attach`): `outbox-files` in the state directory (0700), from the root.
    func outboxFilesDirectory() throws -> String {
        var state = try stateDirectory()
        if !state.hasPrefix("/") { state = FileManager.default.currentDirectoryPath + "/" + state }
        let directory = state + "/outbox-files"
        do {
            try PrivateFiles.ensureDirectory(state)
            try PrivateFiles.ensureDirectory(directory)
        } catch {
            throw Failure(.failure, "cannot use the state directory: \(error)")
        }
        return directory
    }
}
