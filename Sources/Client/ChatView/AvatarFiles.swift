/// Which senders' avatar files the edge was asked for (`ScreenEffect.fetchAvatar`)
/// and what it answered (`ScreenEvent.avatarFetched`): a file in the state
/// directory, or none (no picture, or it could not be fetched). Names only, one per
/// user; the pictures drawn are kept with the previews (`PreviewCache`), bounded.
package struct AvatarFiles: Hashable, Sendable {
    package enum State: Hashable, Sendable { case asked, file(String), missing }

    private var states: [Int: State] = [:]

    package init() {}

    package func state(of userID: Int) -> State? { states[userID] }

    /// The file of `userID`'s picture, once fetched.
    package func path(of userID: Int) -> String? {
        if case .file(let path)? = states[userID] { path } else { nil }
    }

    /// True when `userID` was never asked for: the caller asks the edge, once.
    package mutating func ask(_ userID: Int) -> Bool {
        guard states[userID] == nil else { return false }
        states[userID] = .asked
        return true
    }

    package mutating func fetched(_ userID: Int, path: String?) {
        states[userID] = path.map(State.file) ?? .missing
    }

    /// After a reconnect: those without a file are asked again (a fetch may have failed
    /// while the server could not be reached; a user may have set a picture since).
    package mutating func forgetMissing() {
        states = states.filter { $0.value != .missing }
    }
}
