import HTTPTransport
import Messaging
import Presentation

/// The progress bars of an outbox entry's files (`send --attach`, `outbox flush`):
/// one at a time on stderr, named after its file, cleared when the next file
/// begins and at the end. None unless stderr is a terminal, never with --quiet.
final class UploadProgressBars {
    private let context: CommandContext
    private let quiet: Bool
    private var file: (messageID: String, attachment: Int)?
    private var meter: ProgressMeter?

    init(context: CommandContext, quiet: Bool) {
        self.context = context; self.quiet = quiet
    }

    func update(_ transfer: TransferUpdate) {
        if file?.messageID != transfer.messageID || file?.attachment != transfer.attachment {
            finish()
            file = (transfer.messageID, transfer.attachment)
            meter = ProgressMeter.make(name: transfer.name, context: context, quiet: quiet)
        }
        meter?.update(TransferProgress(bytes: transfer.done, total: transfer.total))
    }

    /// Clears the bar drawn last, so that what follows starts on a clean line.
    func finish() {
        meter?.finish()
        meter = nil
        file = nil
    }
}

extension ProgressMeter {
    /// A meter on the command's stderr, or nil: only for a person at a terminal, never with --quiet.
    static func make(name: String, context: CommandContext, quiet: Bool) -> ProgressMeter? {
        let io = context.io
        guard !quiet, io.stderrIsTerminal else { return nil }
        // stderr's own width: stdout may be a file or a pipe (`-o -`).
        return ProgressMeter(name: name, width: io.stderrColumns ?? 80) { io.writeErr($0) }
    }
}
