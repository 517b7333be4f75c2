import HTTPTransport
import MessageCache

/// The progress bars of an outbox entry's files (`send --attach`, `outbox flush`):
/// one at a time on stderr, named after its file, cleared when the next file
/// begins and at the end. None unless stderr is a terminal, never with --quiet.
final class UploadProgressBars {
    private let context: CommandContext
    private let quiet: Bool
    private var position: Int?
    private var meter: ProgressMeter?

    init(context: CommandContext, quiet: Bool) {
        self.context = context; self.quiet = quiet
    }

    func update(_ upload: OutboxUpload, _ progress: TransferProgress) {
        if position != upload.position {
            finish()
            position = upload.position
            meter = ProgressMeter.make(name: upload.name, context: context, quiet: quiet)
        }
        meter?.update(progress)
    }

    /// Clears the bar drawn last, so that what follows starts on a clean line.
    func finish() {
        meter?.finish()
        meter = nil
        position = nil
    }
}
