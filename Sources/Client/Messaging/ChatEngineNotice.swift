import Diagnostics
import ChatIdentifiers

/// Something a chat engine tells a person, as a value: `listen` prints each on stderr,
/// the chat view shows them in its status line. The engine carries on after every one.
package enum ChatEngineNotice: Sendable, Equatable, CustomStringConvertible {
    /// A step failed; it is tried again later, or skipped.
    case failed(ChatEngineStep, Failure)
    /// A message that cannot be filed under any dialog: from this JID, not a user of this application.
    case ignoredMessage(from: String)
    /// The session could be kept alive again after failures.
    case sessionKeptAlive
    /// A file was saved where the person asked.
    case saved(path: String)

    package var description: String {
        switch self {
        case .failed(let step, let failure): return step.describe(failure)
        case .ignoredMessage(let from): return "ignored a message from \(from): not a user of this application"
        case .sessionKeptAlive: return "session kept alive again"
        case .saved(let path): return "saved \(path)"
        }
    }
}

/// What a chat engine was doing when something failed.
package enum ChatEngineStep: Sendable, Equatable {
    case cacheMessages
    case sendMarkers
    case confirmMarkers
    case markRead(count: Int)
    case joinRoom(String)
    case lookUpNotifiedDialog(DialogID)
    case fileMessage(fromUser: Int)
    case keepSessionAlive
    case endMute
    case send
    case flushOutbox
    case flushSome
    case sendTo(String)
    case catchUp
    case fetchOlder
    case attach(path: String)
    case queueFile
    case uploadFile
    case download
    case edit
    case delete
    case answerContact
    case readBlockList
    case changeBlockList

    func describe(_ failure: Failure) -> String {
        let why = failure.message
        switch self {
        case .cacheMessages: return "messages are shown but not cached: \(why)"
        case .sendMarkers: return "chat markers: \(why)"
        case .confirmMarkers: return "markers may not have reached the server (\(why))"
        case .markRead(let count): return "could not mark \(count) message\(count == 1 ? "" : "s") read (\(why))"
        case .joinRoom(let name): return "could not join \(name): \(why)"
        case .lookUpNotifiedDialog(let id): return "could not look up dialog \(id) from a notification: \(why)"
        case .fileMessage(let user): return "could not file a message from user \(user): \(why)"
        // Only `send --lines` goes on without its session (listen ends): the stream lasts as long as the connection.
        case .keepSessionAlive where failure.kind == .authentication: return "\(failure.description); sending goes on while the connection lasts"
        case .keepSessionAlive: return "\(why); trying again"
        case .endMute: return "a mute that ended is not undone on the server yet (\(why)); trying again"
        case .send: return "could not send: \(why)"
        case .flushOutbox: return "the outbox could not be sent: \(why)"
        case .flushSome: return "some of the outbox could not be sent: \(why)"
        case .sendTo(let name): return "could not send to \(name): \(why)"
        case .catchUp: return "could not bring the dialog up to date: \(why)"
        case .fetchOlder: return "older messages could not be fetched: \(why)"
        // A refusal of the file names it already ("cannot attach PATH: it is a directory").
        case .attach(let path): return failure.message.hasPrefix("cannot attach") ? failure.description : "cannot attach \(path): \(failure.description)"
        case .queueFile: return "cannot queue the file: \(why)"
        case .uploadFile: return "the file was not sent: \(why)"
        case .download: return failure.description
        case .edit: return "not edited: \(why)"
        case .delete: return "not deleted: \(why)"
        case .answerContact: return failure.description
        case .readBlockList: return "whom you block could not be read: \(why)"
        case .changeBlockList: return failure.description
        }
    }
}
