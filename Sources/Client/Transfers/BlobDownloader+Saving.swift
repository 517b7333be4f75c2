import Diagnostics
import HTTPTransport

extension BlobDownloader {
    /// Saves blob `uid` into `directory` under the name its sender gave it made safe
    /// (`SafeFileName`), never over a file that is there: `cat.jpg`, then `cat-2.jpg`,
    /// `cat-3.jpg`, the first that neither exists nor has a `.part` (another program may take
    /// one meanwhile: then the next). Returns the path, in `directory`'s terms. For `listen
    /// --download` and the chat view's `d`.
    package func save(uid: String, name: String?, in directory: String,
                      progress: (TransferProgress) -> Void = { _ in }) throws(Failure) -> String {
        let safe = SafeFileName.make(name, fallback: uid)
        var number = 1
        while true {
            let path = Self.freePath(for: safe, in: directory, from: &number)
            do {
                try download(uid: uid, to: path, overwrite: false, progress: progress)
                return path
            } catch where error.kind == .invalidInput && Self.exists(path) && number < 1000 {
                number += 1
            }
        }
    }

    /// `DIRECTORY/NAME`, numbered from `number` on until neither it nor its `.part` exists.
    static func freePath(for name: String, in directory: String, from number: inout Int) -> String {
        while true {
            let numbered = SafeFileName.numbered(name, number)
            let path = directory == "/" ? "/" + numbered : "\(directory)/\(numbered)"
            if !exists(path) && !exists(path + ".part") { return path }
            number += 1
        }
    }
}
