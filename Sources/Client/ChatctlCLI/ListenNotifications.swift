#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import Messaging

/// `listen --notify`: a desktop notification (`DesktopNotifier`) for each message heard from
/// others, except in a muted dialog (the cache's flag, read at each message, so a `dialogs mute`
/// made meanwhile counts; a mute for a while that has ended is undone first).
final class ListenNotifications {
    enum Decision: Equatable {
        case notify
        case skip
        /// Muted for a while, and the while is over: unmuted on the server, then notified.
        case unmuteThenNotify
    }

    private let notifier: DesktopNotifier
    private let service: MessagingService
    private let context: CommandContext

    private init(notifier: DesktopNotifier, service: MessagingService, context: CommandContext) {
        self.notifier = notifier; self.service = service; self.context = context
    }

    /// Connects to the session's notification service; without one, says so in one line and
    /// returns nil: listen goes on without.
    static func start(service: MessagingService, context: CommandContext) -> ListenNotifications? {
        let (notifier, reason) = DesktopNotifier.connect(environment: context.environment)
        guard let notifier else {
            context.io.warn("--notify: \(reason ?? "no notification service"); listening without desktop notifications")
            return nil
        }
        return ListenNotifications(notifier: notifier, service: service, context: context)
    }

    /// Whether a message heard notifies: never ours (from another device), never in a muted dialog.
    static func decide(outgoing: Bool, dialog: CachedDialog?, now: Int) -> Decision {
        if outgoing { return .skip }
        guard let dialog, dialog.muted else { return .notify }
        if let until = dialog.mutedUntil, until <= now { return .unmuteThenNotify }
        return .skip
    }

    /// `sender` and `dialogTitle`: the names listen's line shows.
    func heard(_ item: HeardMessage, sender: String, dialogTitle: String) {
        guard item.message.senderID != service.me else { return }
        let dialog = service.cachedDialog(id: item.message.dialogID)
        switch Self.decide(outgoing: item.outgoing, dialog: dialog, now: Int(Date().timeIntervalSince1970)) {
        case .skip: return
        case .unmuteThenNotify: context.endExpiredMutes(service)
        case .notify: break
        }
        let notice = DesktopNotice(item.message, sender: sender, dialogTitle: dialogTitle, isPrivate: dialog?.type == .private,
                                   bodyMarkup: notifier.bodyMarkup)
        if let failure = notifier.post(notice) {
            context.io.warn("--notify: a desktop notification was not shown (\(failure)); listening goes on")
        }
    }
}

@available(*, unavailable)
extension ListenNotifications: Sendable {}
