/// The image previews in the model: those the edge drew (`previewDrawn`), the
/// `capacity` most recent kept beside any the screen shows, and those asked for
/// (`drawPreview`) that have not come yet, so each is asked once. A value like the
/// rest of the model: layout and renderer read it, only the update changes it.
package struct PreviewCache: Equatable, Sendable {
    /// Previews stay at most this many, beyond those on the screen (as `PreviewLoader`
    /// keeps 16 decoded images).
    package static let capacity = 16

    private var drawn: [PreviewRequest: ImagePreview] = [:]
    /// Least recently drawn first.
    private var order: [PreviewRequest] = []
    /// Asked for, not drawn yet. The edge answers every request, so it empties.
    private var asked: Set<PreviewRequest> = []

    package init() {}

    package var count: Int { drawn.count }

    /// What an image's cell shows for `request` and the key it is kept under: its own
    /// preview, or meanwhile (say while a resize is redrawn) the newest of the same
    /// file and profile that fits in `request.room`; nil, and the cell shows the
    /// name line alone. Never a picture larger than the room.
    package func preview(for request: PreviewRequest) -> (key: PreviewRequest, preview: ImagePreview)? {
        if let own = drawn[request], Self.fits(own, in: request.room) { return (request, own) }
        for key in order.reversed() where key.path == request.path && key.profile == request.profile {
            if let other = drawn[key], Self.fits(other, in: request.room) { return (key, other) }
        }
        return nil
    }

    private static func fits(_ preview: ImagePreview, in room: CellBox) -> Bool {
        guard let box = preview.box else { return true }
        return box.columns > 0 && box.rows > 0 && box.columns <= room.columns && box.rows <= room.rows
    }

    /// True when `request` was neither drawn nor asked for yet: the caller asks the
    /// edge (`drawPreview`), and it counts as asked from now on.
    package mutating func ask(_ request: PreviewRequest) -> Bool {
        guard drawn[request] == nil, !asked.contains(request) else { return false }
        asked.insert(request)
        return true
    }

    /// Keeps what the edge drew for `request`.
    package mutating func store(_ preview: ImagePreview, for request: PreviewRequest) {
        asked.remove(request)
        if drawn.updateValue(preview, forKey: request) != nil { order.removeAll { $0 == request } }
        order.append(request)
    }

    /// Past `capacity`, the least recently drawn go, except those in `keeping` (what
    /// the screen shows now, which would otherwise be asked for again at once).
    package mutating func trim(keeping: Set<PreviewRequest>) {
        var index = 0
        while drawn.count > Self.capacity && index < order.count {
            let key = order[index]
            if keeping.contains(key) {
                index += 1
            } else {
                drawn[key] = nil
                order.remove(at: index)
            }
        }
    }
}
