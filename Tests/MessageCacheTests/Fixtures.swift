import MessageCache
import TestSupport
import ChatIdentifiers

func dialog(_ n: Int, type: DialogType = .group, name: String? = nil, occupants: [Int] = [1, 2], last: Int? = nil, updatedAt: Int = 100) -> CachedDialog {
    let id = dialogID(n)
    return CachedDialog(
        id: id, type: type, name: name ?? "dialog \(n)", occupantIDs: occupants, lastMessage: last.map { "msg \($0)" },
        lastMessageDateSent: last, unreadCount: n, updatedAt: updatedAt,
        rawJSON: #"{"_id":"\#(id)","type":\#(type.rawValue),"updated":\#(updatedAt)}"#)
}

func message(_ n: Int, dialog: DialogID, date: Int, text: String = "hello", sender: Int = 1) -> CachedMessage {
    let id = hexID(n, prefix: "e")
    return CachedMessage(
        id: id, dialogID: dialog, senderID: sender, recipientID: 0, dateSent: date, text: text,
        rawJSON: #"{"_id":"\#(id)","chat_dialog_id":"\#(dialog)","message":"\#(text)","date_sent":\#(date)}"#)
}

/// A fresh cache in a fresh directory.
struct CacheFixture {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory(prefix: "chatctl-cache-test") }
    var path: String { directory.file("cache.sqlite") }
    func open() throws -> ChatCache { try ChatCache(path: path) }
}

/// Dialog `n`'s id: a hex id after "d".
func dialogID(_ n: Int) -> DialogID { DialogID(hexID(n, prefix: "d")) }

/// A 24-digit hex id (an ObjectID's shape) made from `value`, after `prefix`.
func hexID(_ value: Int, prefix: String = "") -> String {
    let digits = prefix + String(value, radix: 16)
    return String(repeating: "0", count: max(0, 24 - digits.count)) + digits
}
