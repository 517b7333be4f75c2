#if canImport(Glibc)
import Glibc
#endif
import AuthFlow
import Diagnostics
import MessageCache
import QuickBloxAPI
import Transfers

extension MessagingService {
    /// The file of `userID`'s avatar (their `blob_id`), fetched into `directory` once as
    /// `{user id}-{blob id}` (0600, in a 0700 directory) and found there after; nil for a
    /// user without one. The user is asked of the server (their picture may have changed),
    /// else read from the cache; an older picture of theirs is removed.
    package func avatarFile(of userID: Int, in directory: String) throws(Failure) -> String? {
        var blobID: Int?
        if let user = try? api.user(id: userID) {
            try? cache.upsertUsers([CacheRecords.user(user)])
            blobID = Self.blobID(user.raw["blob_id"])
        } else if let cached = try? cache.user(id: userID), let raw = try? JSONValue(parsing: cached.rawJSON) {
            blobID = Self.blobID(raw["blob_id"])
        }
        guard let blobID else { return nil }
        let path = "\(directory)/\(userID)-\(blobID)"
        if BlobDownloader.exists(path) { return path }
        do { try PrivateFiles.ensureDirectory(directory) } catch {
            throw Failure(.failure, "cannot keep avatars in \(directory): \(error.reason)")
        }
        let blob: QBBlob
        do { blob = try api.blob(id: blobID) } catch {
            throw Failure(describing: error, doing: "look up the avatar of user \(userID)")
        }
        // Private from its first byte: the part file too.
        try BlobDownloader(api: api).download(uid: blob.uid, to: path, overwrite: false, mode: 0o600)
        Self.removeOlderAvatars(of: userID, keeping: path, in: directory)
        return path
    }

    /// A `blob_id` as the service sends it: a number (or a numeric string), 0 or null for none.
    static func blobID(_ value: JSONValue?) -> Int? {
        guard let id = value?.intValue ?? value?.stringValue.flatMap({ Int($0) }), id > 0 else { return nil }
        return id
    }

    /// One picture per user stays: those of blob ids they no longer have go.
    private static func removeOlderAvatars(of userID: Int, keeping path: String, in directory: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var stale: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("\(userID)-"), !name.hasSuffix(".part"), "\(directory)/\(name)" != path { stale.append(name) }
        }
        for name in stale { unlink("\(directory)/\(name)") }
    }
}
