#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache

/// A followed dialog's history: brought up to date after every connect, and paged back
/// from the server when the cache has nothing older (the chat view).
extension ChatEngine {
    /// The dialog's messages the cache lacks (since the newest it has, or the newest page
    /// when it has none), and the state of its newest page as the server has it now
    /// (markers that came while this was not connected).
    func catchUp(_ dialogID: DialogID) {
        do {
            let fresh: [CachedMessage]
            if let newest = try service.cached({ () throws(MessageCacheError) in try service.cache.newestMessage(dialogID: dialogID) }) {
                fresh = try service.newMessages(dialogID: dialogID, since: newest.dateSent - 1)
                try service.syncHistory(dialogID: dialogID, limit: settings.pageSize, before: newest.dateSent + 1, since: nil)
            } else {
                try service.syncHistory(dialogID: dialogID, limit: settings.pageSize, before: nil, since: nil)
                fresh = try service.history(dialogID: dialogID, limit: settings.pageSize, before: nil, since: nil, source: .cacheOnly, markRead: false)
            }
            emitMessages(.caughtUp(dialogID: dialogID, fresh))
            feed(.followedAsked(at: .now))
            feed(.followedWatermark(try newestCachedDate(of: dialogID)))
            let recent = try service.history(dialogID: dialogID, limit: settings.pageSize, before: nil, since: nil, source: .cacheOnly, markRead: false)
            emitMessages(.changed(recent))
            reportOutbox()
        } catch {
            emit(.notice(.failed(.catchUp, error)))
        }
    }

    /// The followed dialog's messages the server has and no stanza brought: ours sent over
    /// REST from another device or script (docs/protocol.md §7, Carbons). Asked from a second
    /// before the newest the last ask saw, so one sent in that second is not skipped.
    /// A dialog quiet for a minute is asked every 15 s at most often, not every 2: a view left
    /// open all day costs the server little (what this machine sends shows from the cache).
    func refreshFollowedIfDue(at now: ContinuousClock.Instant = .now) {
        guard core.followedAskIsDue(at: now), let followed = core.followed else { return }
        feed(.followedAsked(at: now))
        do {
            var since = followed.watermark ?? 0
            if followed.watermark == nil { since = try newestCachedDate(of: followed.id) ?? 0 }
            let fresh = try service.newMessages(dialogID: followed.id, since: since - 1)
            if let newest = try newestCachedDate(of: followed.id) {
                // A live message's date is its sender's clock: one running ahead must not skip a gap.
                feed(.followedWatermark(max(since, min(newest, Int(Date().timeIntervalSince1970)))))
            }
            if !fresh.isEmpty { emitMessages(.caughtUp(dialogID: followed.id, fresh)) }
            feed(.followedAskEnded(nil))
        } catch {
            feed(.followedAskEnded(error))
        }
    }

    /// The `date_sent` of the newest message the cache has of a dialog.
    private func newestCachedDate(of dialogID: DialogID) throws(Failure) -> Int? {
        try service.cached { () throws(MessageCacheError) in try service.cache.newestMessage(dialogID: dialogID)?.dateSent }
    }

    /// A page before `before` from the server. `date_sent` counts whole seconds: the page asked
    /// for reaches up to that second, past the messages of it the cache has (a burst shares
    /// one), so it holds a page before them; the cache keeps each message once.
    func fetchOlder(_ dialogID: DialogID, before: MessagePosition) {
        do {
            var bound: Int?
            var sameSecond = 0
            if before.dateSent != Int.max {
                bound = before.dateSent + 1
                sameSecond = try service.cached { () throws(MessageCacheError) in
                    try service.cache.messageCount(dialogID: dialogID, dateSent: before.dateSent)
                }
            }
            try service.syncHistory(dialogID: dialogID, limit: sameSecond + settings.pageSize, before: bound, since: nil)
            let page = try service.cached { () throws(MessageCacheError) in
                try service.cache.messages(dialogID: dialogID, beforeDate: before.dateSent, id: before.id, limit: settings.pageSize)
            }
            emitMessages(.olderLoaded(dialogID: dialogID, before: before, page, exhausted: page.isEmpty))
        } catch {
            emit(.olderLoaded(dialogID: dialogID, before: before, [], exhausted: false))
            emit(.notice(.failed(.fetchOlder, error)))
        }
    }

    /// The dialogs as the cache has them, with their occupants' names (`reportsDialogList`).
    func reportDialogs() {
        guard settings.reportsDialogList, let all = try? service.dialogs(type: nil, limit: nil, source: .cacheOnly) else { return }
        let learnt = names.learn(Set(all.flatMap(\.occupantIDs)), service: service, online: false)
        if !learnt.isEmpty { emit(.names(learnt)) }
        emit(.dialogs(all, shownTitles: (try? service.dialogNameIndex(of: all))?.suffixedTitles() ?? [:]))
    }
}
