/// QuickBlox's attachment `type` (docs/protocol.md §8): how the apps show a file.
package enum AttachmentKind: String, Sendable, CaseIterable {
    case image, video, audio, file

    /// From a MIME type (`image/jpeg`, `Video/MP4; codecs=…`): its top-level type
    /// decides; anything but image, video and audio is a plain file.
    package init(mimeType: String) {
        let essence = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        // type "/" subtype, both there: "image" alone says nothing.
        let parts = essence.split(separator: "/", maxSplits: 1)
        let top = parts.count == 2 ? parts[0].lowercased().trimmingCharactersSpaces() : ""
        self = switch top {
        case "image": .image
        case "video": .video
        case "audio": .audio
        default: .file
        }
    }
}

extension String {
    fileprivate func trimmingCharactersSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
