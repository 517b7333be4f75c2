// Push notifications (docs/protocol.md §14) in the sandbox's SQLite database: subscriptions,
// events with their schedule, and the record of every delivery made in place of a push service.
internal import SQLiteStore
import SandboxClock

/// Subscriptions, events and deliveries. Lives on the event-loop thread (not Sendable).
package final class PushStore {
    let db: Database
    let now: () -> Double

    package init(database: SandboxDatabase, now: @escaping () -> Double = SandboxTime.now) {
        db = database.db
        self.now = now
    }

    /// Runs `body` in one transaction (a savepoint inside another): several calls, all or none.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        try db.transaction { try body() }
    }

    // MARK: subscriptions

    static func subscription(from row: Statement) -> PushSubscriptionRecord {
        PushSubscriptionRecord(id: row["id"].intValue ?? 0, userId: row["user_id"].intValue ?? 0, device: PushDevice(row: row),
                               createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0)
    }

    /// The user's subscriptions, oldest first.
    package func subscriptions(userId: Int) throws -> [PushSubscriptionRecord] {
        try db.query("SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY id", [.int(userId)], Self.subscription(from:))
    }

    package func subscription(id: Int) throws -> PushSubscriptionRecord? {
        try db.queryFirst("SELECT * FROM push_subscriptions WHERE id = ?", [.int(id)], Self.subscription(from:))
    }

    /// The subscription of that device to that channel, whoever's it is.
    package func subscription(udid: String, channel: PushChannel) throws -> PushSubscriptionRecord? {
        try db.queryFirst("SELECT * FROM push_subscriptions WHERE udid = ? AND channel = ?", [.text(udid), .text(channel.rawValue)],
                          Self.subscription(from:))
    }

    /// Subscribes the device to each channel for `userId`, all or none. A device subscribed to a
    /// channel already is that subscription, renewed (its token, environment, platform) and now
    /// the user's: a device is one user's at a time, the last to subscribe from it.
    package func subscribe(userId: Int, _ devices: [PushDevice]) throws -> [PushSubscriptionRecord] {
        try db.transaction {
            let t = now()
            return try devices.map { new throws -> PushSubscriptionRecord in
                try db.run("""
                    INSERT INTO push_subscriptions (user_id, channel, environment, platform, udid, token, bundle_identifier,
                        created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (udid, channel) DO UPDATE SET user_id = excluded.user_id, environment = excluded.environment,
                        platform = excluded.platform, token = excluded.token, bundle_identifier = excluded.bundle_identifier,
                        updated_at = excluded.updated_at
                    """, [.int(userId), .text(new.channel.rawValue), .text(new.environment.rawValue), .text(new.platform),
                          .text(new.udid), .text(new.token), .optional(new.bundleIdentifier), .real(t), .real(t)])
                guard let stored = try subscription(udid: new.udid, channel: new.channel) else {
                    throw SQLiteError(extendedCode: .error, message: "the subscription just stored cannot be read back")
                }
                return stored
            }
        }
    }

    package func deleteSubscription(id: Int) throws {
        try db.run("DELETE FROM push_subscriptions WHERE id = ?", [.int(id)])
    }

    // MARK: events

    static func event(from row: Statement) -> PushEventRecord {
        let draft = PushEventDraft(
            notificationType: PushNotificationType(rawValue: row["notification_type"].textValue ?? "") ?? .push,
            pushType: row["push_type"].textValue.flatMap(PushChannel.init(rawValue:)),
            environment: PushEnvironment(rawValue: row["environment"].textValue ?? "") ?? .development,
            eventType: PushEventType(rawValue: row["event_type"].textValue ?? "") ?? .oneShot,
            message: row["message"].textValue ?? "", name: row["name"].textValue,
            date: row["date"].intValue, endDate: row["end_date"].intValue, period: row["period"].intValue,
            recipients: PushRecipients(stored: row["recipients"].textValue ?? ""))
        return PushEventRecord(id: row["id"].intValue ?? 0, userId: row["user_id"].intValue ?? 0, draft: draft,
                               active: row["active"].intValue == 1, occurredCount: row["occurred_count"].intValue ?? 0,
                               nextAt: row["next_at"].intValue, lastOccurredAt: row["last_occurred_at"].doubleValue,
                               lastDeliveryCount: row["last_delivery_count"].intValue ?? 0,
                               createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0)
    }

    /// A new event, to occur at `nextAt`; a one-shot event is active until it occurs, a dated
    /// one as long as it has a date ahead.
    package func createEvent(userId: Int, _ draft: PushEventDraft, nextAt: Int?) throws -> PushEventRecord {
        let t = now()
        let active = draft.eventType == .oneShot || nextAt != nil
        try db.run("""
            INSERT INTO push_events (user_id, notification_type, push_type, environment, event_type, message, name, date,
                end_date, period, recipients, active, occurred_count, next_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)
            """, [.int(userId)] + Self.draftValues(draft) + [.int(active ? 1 : 0), .optional(nextAt), .real(t), .real(t)])
        guard let event = try event(id: Int(db.lastInsertRowID)) else {
            throw SQLiteError(extendedCode: .error, message: "the event just stored cannot be read back")
        }
        return event
    }

    /// The draft's columns, in the order `createEvent` and `updateEvent` name them.
    private static func draftValues(_ draft: PushEventDraft) -> [SQLiteValue] {
        [.text(draft.notificationType.rawValue), .optional(draft.pushType?.rawValue), .text(draft.environment.rawValue),
         .text(draft.eventType.rawValue), .text(draft.message), .optional(draft.name), .optional(draft.date),
         .optional(draft.endDate), .optional(draft.period), .text(draft.recipients.stored)]
    }

    package func event(id: Int) throws -> PushEventRecord? {
        try db.queryFirst("SELECT * FROM push_events WHERE id = ?", [.int(id)], Self.event(from:))
    }

    /// One page of the events `userId` created, newest first; with the total count.
    package func events(userId: Int, page: Int, perPage: Int) throws -> (total: Int, items: [PushEventRecord]) {
        let total = try db.queryFirst("SELECT COUNT(*) FROM push_events WHERE user_id = ?", [.int(userId)]) { $0.int(0) } ?? 0
        let items = try db.query("SELECT * FROM push_events WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                                 [.int(userId), .int(perPage), .int((page - 1) * perPage)], Self.event(from:))
        return (total, items)
    }

    /// Replaces what the event is and when it occurs next.
    package func updateEvent(id: Int, _ draft: PushEventDraft, active: Bool, nextAt: Int?) throws -> PushEventRecord? {
        try db.run("""
            UPDATE push_events SET notification_type = ?, push_type = ?, environment = ?, event_type = ?, message = ?, name = ?,
                date = ?, end_date = ?, period = ?, recipients = ?, active = ?, next_at = ?, updated_at = ?
            WHERE id = ?
            """, Self.draftValues(draft) + [.int(active ? 1 : 0), .optional(nextAt), .real(now()), .int(id)])
        return try event(id: id)
    }

    /// Removes the event; its deliveries stay on record.
    package func deleteEvent(id: Int) throws {
        try db.run("DELETE FROM push_events WHERE id = ?", [.int(id)])
    }

    /// The events due at `time` (unix seconds), soonest first.
    package func dueEvents(at time: Int) throws -> [PushEventRecord] {
        try db.query("SELECT * FROM push_events WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, id",
                     [.int(time)], Self.event(from:))
    }

    /// When the next event is due, if any is.
    package func nextDue() throws -> Int? {
        try db.queryFirst("SELECT MIN(next_at) FROM push_events WHERE next_at IS NOT NULL") { $0.optionalInt(0) } ?? nil
    }

    // MARK: recipients and deliveries

    /// The subscriptions an occurrence of `draft` reaches now: those in `channels` and the
    /// draft's environment, of the users its recipients pick (docs/protocol.md §14); by user,
    /// then subscription.
    package func targets(of draft: PushEventDraft, channels: [PushChannel]) throws -> [PushSubscriptionRecord] {
        guard !channels.isEmpty else { return [] }
        let (condition, arguments) = Self.recipientCondition(draft.recipients)
        let channelList = channels.map { _ in "?" }.joined(separator: ",")
        return try db.query("""
            SELECT s.* FROM push_subscriptions s JOIN users u ON u.id = s.user_id
            WHERE \(condition) AND s.environment = ? AND s.channel IN (\(channelList))
            ORDER BY s.user_id, s.id
            """, arguments + [.text(draft.environment.rawValue)] + channels.map { .text($0.rawValue) },
            Self.subscription(from:))
    }

    /// The SQL that picks the recipients among `users u`: the id lists or the tag selection,
    /// never an excluded tag; everyone but the excluded when only `tagsExclude` is given.
    static func recipientCondition(_ r: PushRecipients) -> (String, [SQLiteValue]) {
        func list(_ values: [Int]) -> String { values.map { _ in "?" }.joined(separator: ",") }
        let tagged = SandboxDatabase.hasTag("u")
        var picks: [String] = []
        var arguments: [SQLiteValue] = []
        if !r.userIds.isEmpty {
            picks.append("u.id IN (\(list(r.userIds)))")
            arguments += r.userIds.map(SQLiteValue.int)
        }
        if !r.externalUserIds.isEmpty {
            picks.append("u.external_user_id IN (\(list(r.externalUserIds)))")
            arguments += r.externalUserIds.map(SQLiteValue.int)
        }
        if !r.tagsAny.isEmpty || !r.tagsAll.isEmpty {
            var both: [String] = []
            if !r.tagsAny.isEmpty { both.append("(" + r.tagsAny.map { _ in tagged }.joined(separator: " OR ") + ")") }
            both += r.tagsAll.map { _ in tagged }
            picks.append("(" + both.joined(separator: " AND ") + ")")
            arguments += (r.tagsAny + r.tagsAll).map(SQLiteValue.text)
        }
        var condition = picks.isEmpty ? "1" : "(" + picks.joined(separator: " OR ") + ")"
        if !r.tagsExclude.isEmpty {
            condition += " AND NOT (" + r.tagsExclude.map { _ in tagged }.joined(separator: " OR ") + ")"
            arguments += r.tagsExclude.map(SQLiteValue.text)
        }
        return (condition, arguments)
    }

    static func delivery(from row: Statement) -> PushDeliveryRecord {
        PushDeliveryRecord(id: row["id"].intValue ?? 0, eventId: row["event_id"].intValue ?? 0,
                           subscriptionId: row["subscription_id"].intValue ?? 0, userId: row["user_id"].intValue ?? 0,
                           device: PushDevice(row: row), payload: row["payload"].textValue ?? "",
                           deliveredAt: row["delivered_at"].doubleValue ?? 0)
    }

    /// One occurrence of the event: a delivery recorded for each `(subscription, payload)`, and
    /// the event counted, stamped and left `active` with its `nextAt`; all or none.
    package func recordOccurrence(eventId: Int, deliveries: [(PushSubscriptionRecord, String)], active: Bool,
                                  nextAt: Int?) throws -> [PushDeliveryRecord] {
        try db.transaction {
            let t = now()
            let stored = try deliveries.map { subscription, payload throws -> PushDeliveryRecord in
                // What a delivery records of the device (no bundle id, which only its subscription keeps).
                var device = subscription.device
                device.bundleIdentifier = nil
                try db.run("""
                    INSERT INTO push_deliveries (event_id, subscription_id, user_id, channel, environment, platform, udid, token,
                        payload, delivered_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.int(eventId), .int(subscription.id), .int(subscription.userId), .text(device.channel.rawValue),
                          .text(device.environment.rawValue), .text(device.platform), .text(device.udid),
                          .text(device.token), .text(payload), .real(t)])
                return PushDeliveryRecord(id: Int(db.lastInsertRowID), eventId: eventId, subscriptionId: subscription.id,
                                          userId: subscription.userId, device: device, payload: payload, deliveredAt: t)
            }
            try db.run("""
                UPDATE push_events SET occurred_count = occurred_count + 1, last_occurred_at = ?, last_delivery_count = ?,
                    active = ?, next_at = ?
                WHERE id = ?
                """, [.real(t), .int(stored.count), .int(active ? 1 : 0), .optional(nextAt), .int(eventId)])
            return stored
        }
    }

    /// One page of the deliveries, oldest first, of one event or one user's when given; with
    /// the total count.
    package func deliveries(eventId: Int?, userId: Int?, page: Int, perPage: Int) throws -> (total: Int, items: [PushDeliveryRecord]) {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        if let eventId { conditions.append("event_id = ?"); arguments.append(.int(eventId)) }
        if let userId { conditions.append("user_id = ?"); arguments.append(.int(userId)) }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total = try db.queryFirst("SELECT COUNT(*) FROM push_deliveries \(whereClause)", arguments) { $0.int(0) } ?? 0
        let items = try db.query("SELECT * FROM push_deliveries \(whereClause) ORDER BY id LIMIT ? OFFSET ?",
                                 arguments + [.int(perPage), .int((page - 1) * perPage)], Self.delivery(from:))
        return (total, items)
    }

    /// How many deliveries the event made in all.
    package func deliveryCount(eventId: Int) throws -> Int {
        try db.queryFirst("SELECT COUNT(*) FROM push_deliveries WHERE event_id = ?", [.int(eventId)]) { $0.int(0) } ?? 0
    }
}

@available(*, unavailable) extension PushStore: Sendable {}
