import MessageCache

/// Your own message's state as an export writes it, the words `history` prints
/// in plain text (docs/protocol.md §7).
enum ExportStateText {
    static func of(_ status: MessageStatus) -> String {
        switch status {
        case .sent: "✓ sent"
        case .delivered: "✓✓ delivered"
        case .read: "✓✓ read"
        }
    }

    /// `2026-11-30 08:00 CET` on the export's clock (`UTC`, not the C library's `GMT`).
    static func time(_ unix: Int, zone: TimeText.Zone) -> String {
        switch zone {
        case .utc: TimeText.format(Double(unix), "%Y-%m-%d %H:%M UTC", in: zone)
        case .local: TimeText.format(Double(unix), "%Y-%m-%d %H:%M %Z", in: zone)
        }
    }

    /// What the header says of the range: nil for the whole dialog.
    static func range(since: Int?, before: Int?, zone: TimeText.Zone) -> String? {
        switch (since, before) {
        case (nil, nil): nil
        case (let since?, nil): "messages sent after \(time(since, zone: zone))"
        case (nil, let before?): "messages sent before \(time(before, zone: zone))"
        case (let since?, let before?): "messages sent after \(time(since, zone: zone)) and before \(time(before, zone: zone))"
        }
    }

    /// `image, 1.2 MB` (what is known of it).
    static func details(_ attachment: ExportedAttachment) -> String {
        var parts: [String] = []
        if let type = attachment.attachment.type, !type.isEmpty { parts.append(type) }
        if let size = attachment.attachment.size { parts.append(AttachmentLabel.byteCount(size)) }
        return parts.joined(separator: ", ")
    }
}
