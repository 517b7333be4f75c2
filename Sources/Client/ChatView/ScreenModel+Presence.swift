extension ScreenModel {
    /// Whether user `id` is online, as last heard.
    package func isOnline(_ id: Int) -> Bool { presence[id] == .online }

    /// What a dialog's header says of presence: the peer's (`online`, `last seen 5 min ago`,
    /// `offline`) in a private dialog, `3 members · 2 online` in a group (ourselves counted
    /// while connected); nil while nothing is known (a peer not heard of yet, a group whose
    /// occupants are not listed).
    func presenceLabel(of dialog: DialogSummary, dot: String) -> String? {
        if dialog.kind == .private {
            guard let peer = dialog.peerID, let known = presence[peer] else { return nil }
            switch known {
            case .online: return "online"
            case .lastSeen(let at): return "last seen " + clock.lastSeen(at, now: Int(now), format: settings.timeFormat)
            case .offline: return "offline"
            }
        }
        guard !dialog.occupantIDs.isEmpty else { return nil }
        let members = dialog.occupantIDs.count
        let online = dialog.occupantIDs.filter { $0 == me ? connection == .connected : isOnline($0) }.count
        return "\(members) member\(members == 1 ? "" : "s")\(dot)\(online) online"
    }
}
