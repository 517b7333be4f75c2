#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import XMPPTransport

extension ChatLink {
    /// Sends the announcement's system notifications over chat and waits until the
    /// server has them (XEP-0198, or a ping). Connects first. Returns how many were
    /// sent; throws if chat cannot be reached or does not acknowledge in `timeout`.
    @discardableResult
    package func announce(_ announcement: DialogAnnouncement, timeout: Double = 10) throws(Failure) -> Int {
        let notifications = announcement.notifications(
            appID: config.credentials.applicationId, chatDomain: config.chatDomain,
            dateSent: Int(Date().timeIntervalSince1970)) { connection.makeMessageID() }
        guard !notifications.isEmpty else { return 0 }
        try connect()
        do {
            for notification in notifications { try connection.send(notification) }
            try connection.waitForAcknowledgement(timeout: timeout)
        } catch {
            throw Failure(describing: error)
        }
        return notifications.count
    }
}
