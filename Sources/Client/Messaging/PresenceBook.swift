#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import XMPPTransport

/// What the chat engine knows of other users' presence (ChatEngine+Presence.swift): their
/// resources online, and whose last activity it asked after a reconnect, when what it knew
/// may have gone stale.
struct PresenceBook {
    /// Resources online, by user; `""` stands for "online" learnt from last activity alone.
    private(set) var resources: [Int: Set<String>] = [:]
    /// Users that were online before a reconnect: the last-activity answer settles them.
    var refreshing: Set<Int> = []
    /// Unix seconds now (tests set it).
    var now: () -> Int = { Int(Date().timeIntervalSince1970) }

    func isOnline(_ userID: Int) -> Bool { !(resources[userID]?.isEmpty ?? true) }

    var onlineUsers: [Int] { resources.keys.filter(isOnline).sorted() }

    /// Records a presence; returns the user's presence when it changed.
    mutating func record(_ presence: UserPresence) -> PeerPresence? {
        refreshing.remove(presence.userID)
        let was = isOnline(presence.userID)
        if presence.isAvailable {
            resources[presence.userID, default: []].insert(presence.resource ?? "")
        } else if let resource = presence.resource {
            resources[presence.userID]?.remove(resource)
            // What last activity alone said goes with the first sign of a resource leaving.
            resources[presence.userID]?.remove("")
        } else {
            resources[presence.userID] = nil
        }
        let isOnline = isOnline(presence.userID)
        if isOnline == was { return nil }
        if isOnline { return .online }
        resources[presence.userID] = nil
        return .lastSeen(at: now())
    }

    /// Records a last-activity answer; returns the presence to tell, if any. Presence heard is
    /// fresher than the answer, except for a user being refreshed after a reconnect.
    mutating func record(_ answer: LastActivity) -> PeerPresence? {
        let authoritative = refreshing.remove(answer.userID) != nil
        if answer.seconds == 0 {
            if isOnline(answer.userID) { return nil }
            resources[answer.userID] = [""]
            return .online
        }
        guard authoritative || !isOnline(answer.userID) else { return nil }
        resources[answer.userID] = nil
        if let seconds = answer.seconds { return .lastSeen(at: now() - seconds) }
        return .offline
    }
}
