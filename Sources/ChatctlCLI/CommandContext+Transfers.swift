import AuthFlow
import QuickBloxAPI
import Transfers

/// Files on the content API from a command: sources checked before anything is
/// sent, transfers shown with a progress bar on stderr (a terminal, not --quiet).
extension CommandContext {
    /// What `PATH` names for an upload: a file, or standard input for `-`
    /// (named `name`, else "stdin"). Pipes are copied into the state directory.
    func uploadSource(_ path: String, name: String?) throws -> UploadSource {
        let spool = try flow { () throws(AuthFlowError) in try stateDirectory() }
        do { try PrivateFiles.ensureDirectory(spool) } catch {
            throw CommandError.flow(AuthFlowError(.failure, "cannot use the state directory: \(error)"))
        }
        return try transferring { () throws(TransferError) in
            let sniffer = try ContentSniffer()
            if path == "-" {
                return try UploadSource.stream(0, name: name ?? "stdin", sniffer: sniffer, spoolDirectory: spool)
            }
            return try UploadSource.file(at: path, name: name, sniffer: sniffer, spoolDirectory: spool)
        }
    }

    /// Uploads `source` (create, upload, complete) with its progress bar, and
    /// returns the completed blob and the attachment a message carries for it.
    func upload(_ source: UploadSource, api: QuickBloxClient, quiet: Bool) throws -> (blob: QBBlob, attachment: QBAttachment) {
        let meter = ProgressMeter.make(name: source.name, context: self, quiet: quiet)
        defer { meter?.finish() }
        let blob = try transferring { () throws(TransferError) in
            try BlobUploader(api: api).upload(source) { meter?.update($0) }
        }
        return (blob, BlobUploader.attachment(for: blob, source: source))
    }
}
