import Diagnostics
import MessageCache
import QuickBloxAPI
import Transfers

/// The logged-in user's own record (`chatctl me`, docs/protocol.md §3, "Profile"):
/// read, changed, given a picture, deleted. What changes is cached too, so names and
/// avatars show at once here.
extension MessagingService {
    /// `GET /users/{me}.json`.
    package func profile() throws(Failure) -> QBUser {
        do {
            let user = try api.user(id: me)
            try? cache.upsertUsers([CacheRecords.user(user)])
            return user
        } catch {
            throw Failure(describing: error, doing: "read your profile")
        }
    }

    /// Changes what `update` sets; the user as the server has it now.
    package func updateProfile(_ update: QBUserUpdate) throws(Failure) -> QBUser {
        do {
            let user = try api.updateUser(id: me, update)
            try? cache.upsertUsers([CacheRecords.user(user)])
            return user
        } catch {
            throw Failure(describing: error, doing: "change your profile")
        }
    }

    /// `source` as a public blob (anyone's client may draw it), set as the user's
    /// `blob_id`; the picture it replaces is deleted (a failure there only warns).
    package func setAvatar(_ source: UploadSource) throws(Failure) -> (user: QBUser, oldBlobLeft: Failure?) {
        let old = try profile().blobID
        let blob = try BlobUploader(api: api).upload(source, isPublic: true)
        let user: QBUser
        do { user = try updateProfile(QBUserUpdate(blobID: .some(blob.id))) } catch {
            // Not made the avatar: the picture uploaded for it goes again.
            _ = deleteOldAvatar(blob.id)
            throw error
        }
        return (user, old.flatMap { deleteOldAvatar($0) })
    }

    /// No picture any more; the old blob deleted.
    package func removeAvatar() throws(Failure) -> (user: QBUser, oldBlobLeft: Failure?) {
        let old = try profile().blobID
        let user = try updateProfile(QBUserUpdate(blobID: .some(nil)))
        return (user, old.flatMap { deleteOldAvatar($0) })
    }

    private func deleteOldAvatar(_ id: Int) -> Failure? {
        do { try api.deleteBlob(id: id) } catch {
            return Failure(describing: error, doing: "delete the old avatar (blob \(id))")
        }
        return nil
    }

    /// `DELETE /users/{me}.json`: the account goes, its sessions end.
    package func deleteAccount() throws(Failure) {
        do { try api.deleteUser(id: me) } catch {
            throw Failure(describing: error, doing: "delete your account")
        }
    }
}
