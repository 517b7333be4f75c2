// Push events (docs/protocol.md §14): created, listed, read, changed and deleted as the
// reference describes them, and each occurrence delivered to the recipients' subscriptions,
// recorded and logged instead of handed to a push service. Nothing leaves the machine.
import SandboxClock
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// The periods the reference allows (a day, a week, a month, a year).
    static let eventPeriods = [86_400, 604_800, 2_592_000, 31_557_600]
    static let longestEventName = 255

    /// `POST /events.json` with `event[…]`: `notification_type`, `push_type`, `environment`,
    /// `event_type`, `message`, `name`, `date`, `end_date`, `period` and the recipients
    /// (`user[ids]`, `external_user[ids]`, `user[tags][any|all|exclude]`). A one-shot event
    /// occurs at once and is refused, stored nowhere, when it reaches no device ("No
    /// recipients…"); a dated one waits for its date. 200 `{"event":{…}}` as it stands after.
    func createEvent(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let me = context.session.userId
        let draft = try eventDraft(context.request, changing: nil)
        let event: PushEventRecord
        var delivered: [PushDeliveryRecord] = []
        if draft.eventType == .oneShot {
            let targets = try storage { try push.targets(of: draft, channels: Self.channels(of: draft)) }
            guard !targets.isEmpty else { throw Self.noRecipients(draft) }
            (event, delivered) = try storage {
                try push.atomically {
                    let created = try push.createEvent(userId: me, draft, nextAt: nil)
                    let made = try occur(created, targets: targets)
                    return (try push.event(id: created.id) ?? created, made)
                }
            }
        } else {
            event = try storage { try push.createEvent(userId: me, draft, nextAt: Self.nextOccurrence(of: draft, from: Int(now()))) }
            pushScheduleChanged()
        }
        logDeliveries(delivered)
        return .json(200, .object([("event", event.json(applicationId: credentials.applicationId))]))
    }

    /// `GET /events.json?page=&per_page=`: the session user's events, newest first, a page as
    /// users' are, each item `{"event":{…}}`.
    func listEvents(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let (page, perPage) = userPaging(context.request)
        let (total, items) = try storage { try push.events(userId: context.session.userId, page: page, perPage: perPage) }
        return .json(200, .object([
            ("current_page", .int(page)),
            ("per_page", .int(perPage)),
            ("total_entries", .int(total)),
            ("items", .array(items.map { .object([("event", $0.json(applicationId: credentials.applicationId))]) })),
        ]))
    }

    /// `GET /events/{id}.json`: one of the session user's events (403 another's, 404 unknown).
    func readEvent(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let event = try ownEvent(context)
        return .json(200, .object([("event", event.json(applicationId: credentials.applicationId))]))
    }

    /// `GET /events/{id}/status.json` (the JavaScript SDK's `events.status`): the event with
    /// `status` (`scheduled`, `sent`, `no_recipients`, `inactive`), `deliveries_count` (devices
    /// reached in all) and `last_occurred_at`.
    func eventStatus(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let event = try ownEvent(context)
        let count = try storage { try push.deliveryCount(eventId: event.id) }
        guard case .object(var members) = event.json(applicationId: credentials.applicationId) else { throw .internalError }
        members += [("status", .string(event.status)), ("deliveries_count", .int(count)),
                    ("last_occurred_at", event.lastOccurredAt.map { .string(SandboxTime.iso8601($0)) } ?? .null)]
        return .json(200, .object([("event", .object(members))]))
    }

    /// `PUT /events/{id}.json` with `event[active]`, `message`, `date`, `end_date`, `period`,
    /// `name`. `active` true makes the event occur again: now (a one-shot one, or one whose date
    /// has passed) or at its next date; false stops it. Checked as creating is; 200 `{"event":…}`.
    func updateEvent(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let event = try ownEvent(context)
        let draft = try eventDraft(context.request, changing: event)
        let reactivate = try context.request.flag("event[active]", field: "active")
        let time = Int(now())
        let nextAt: Int?
        switch reactivate {
        case true?: nextAt = Self.nextOccurrence(of: draft, from: time)
        case false?: nextAt = nil
        case nil: nextAt = event.active ? Self.nextOccurrence(of: draft, from: time) : nil
        }
        // Made active again with no date ahead (a one-shot event, or a fixed date that passed): it occurs now.
        let occursNow = reactivate == true && nextAt == nil
        var delivered: [PushDeliveryRecord] = []
        let updated: PushEventRecord = try storage {
            try push.atomically {
                guard let changed = try push.updateEvent(id: event.id, draft, active: nextAt != nil, nextAt: nextAt) else { return event }
                guard occursNow else { return changed }
                delivered = try occur(changed, targets: try push.targets(of: changed.draft, channels: Self.channels(of: changed.draft)))
                return try push.event(id: event.id) ?? changed
            }
        }
        pushScheduleChanged()
        logDeliveries(delivered)
        return .json(200, .object([("event", updated.json(applicationId: credentials.applicationId))]))
    }

    /// `DELETE /events/{id}.json`: the owner only (403; 404 unknown); its deliveries stay on
    /// record. 200, empty.
    func deleteEvent(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let event = try ownEvent(context)
        try storage { try push.deleteEvent(id: event.id) }
        pushScheduleChanged()
        return .empty(200)
    }

    /// Delivers every event due now, each as one occurrence, and says when the next is due
    /// (unix seconds; nil: none is). What cannot be stored is logged and tried again at the
    /// next turn it is due.
    package func deliverDueEvents() -> Int? {
        let time = Int(now())
        do {
            for event in try push.dueEvents(at: time) {
                let delivered = try push.atomically {
                    try occur(event, targets: try push.targets(of: event.draft, channels: Self.channels(of: event.draft)))
                }
                if delivered.isEmpty { notice("push: event \(event.id) occurred with no recipients") }
                logDeliveries(delivered)
            }
            return try push.nextDue()
        } catch {
            notice("push: scheduled events not delivered: \(error)")
            return time + 60
        }
    }

    /// When the next event is due (unix seconds), if any is.
    package func nextPushDue() -> Int? { (try? push.nextDue()) ?? nil }

    /// Seconds from now until `time` (unix seconds), on the API's clock.
    package func seconds(until time: Int) -> Double { Double(time) - now() }

    // MARK: occurrences

    /// One occurrence of `event`: a delivery to each of `targets` with its channel's payload,
    /// recorded with the event's new count and next date.
    private func occur(_ event: PushEventRecord, targets: [PushSubscriptionRecord]) throws -> [PushDeliveryRecord] {
        let deliveries = targets.map {
            ($0, PushMessage.payload(event.draft.message, channel: event.draft.channel, device: $0.device.channel, eventId: event.id))
        }
        var nextAt: Int?
        if event.draft.eventType == .periodDate, let period = event.draft.period {
            // The next date after now: dates missed while the sandbox was stopped occur once, not each.
            var next = (event.nextAt ?? Int(now())) + period
            while next <= Int(now()) { next += period }
            if event.draft.endDate.map({ next <= $0 }) ?? true { nextAt = next }
        }
        return try push.recordOccurrence(eventId: event.id, deliveries: deliveries, active: nextAt != nil, nextAt: nextAt)
    }

    /// One line a delivery, for whoever watches the log.
    private func logDeliveries(_ deliveries: [PushDeliveryRecord]) {
        for d in deliveries {
            notice("push: event \(d.eventId) delivered to user \(d.userId) through subscription \(d.subscriptionId) "
                   + "(\(d.device.channel.rawValue), \(d.device.environment.rawValue), \(d.device.platform) device \(JSONNode.string(d.device.udid).serialized)) "
                   + "at \(SandboxTime.iso8601(d.deliveredAt)): \(d.json["payload"]?.serialized ?? "")")
        }
    }

    /// The channels an occurrence goes to: the event's own, or every push channel for a universal push.
    static func channels(of draft: PushEventDraft) -> [PushChannel] {
        draft.channel.map { [$0] } ?? PushChannel.universal
    }

    /// The hosted service's refusal of an event that reaches no device.
    static func noRecipients(_ draft: PushEventDraft) -> RESTError {
        switch draft.channel {
        case nil: return .list(422, "No one can receive the message")
        case .email?: return .field(422, "base", "No recipients. At least one user should be subscribed for E-mail (through SDK or REST API)")
        case let channel?: return .field(422, "base", "No recipients. At least one user should be subscribed for '\(channel.rawValue)' (through SDK or REST API)")
        }
    }

    /// When a dated event occurs next from `time`: its date, or for a periodic one the first of
    /// its dates not before `time` (nil past its end); nil for a one-shot event.
    static func nextOccurrence(of draft: PushEventDraft, from time: Int) -> Int? {
        guard let date = draft.date else { return nil }
        switch draft.eventType {
        case .oneShot: return nil
        case .fixedDate: return date >= time ? date : nil
        case .periodDate:
            guard let period = draft.period, period > 0 else { return nil }
            var next = date
            if next < time { next += (time - next + period - 1) / period * period }
            return draft.endDate.map { next <= $0 } ?? true ? next : nil
        }
    }

    private func ownEvent(_ context: SessionContext) throws(RESTError) -> PushEventRecord {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let event = try storage({ try push.event(id: id) }) else { throw .notFound }
        guard event.userId == context.session.userId else { throw .forbidden }
        return event
    }

    // MARK: parameters

    /// The event `r` describes (`changing` nil: a new one), checked: every problem in one
    /// 422 naming its field, or a 413 for a payload larger than its service takes.
    private func eventDraft(_ r: RESTRequest, changing existing: PushEventRecord?) throws(RESTError) -> PushEventDraft {
        var problems: [(String, JSONNode)] = []
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        func field(_ name: String) -> String? {
            guard let value = r.parameter("event[\(name)]")?.trimmingSpaces, !value.isEmpty else { return nil }
            return String(value)
        }
        func number(_ name: String) -> Int? {
            guard let text = field(name) else { return nil }
            guard let value = Int(text) else { problem(name, "is not a number"); return nil }
            return value
        }
        func ids(_ key: String, _ name: String) -> [Int] {
            var found: [Int] = []
            for text in r.list(name) ?? [] {
                guard let id = Int(text) else { problem(key, "must be numbers separated by commas: \(text)"); continue }
                found.append(id)
            }
            return found
        }
        var draft: PushEventDraft
        if let existing {
            draft = existing.draft
            if r.parameter("event[name]") != nil { draft.name = field("name") }
            if let date = number("date") { draft.date = date }
            if let endDate = number("end_date") { draft.endDate = endDate }
            if let period = number("period") { draft.period = period }
        } else {
            var notificationType = PushNotificationType.push
            switch field("notification_type")?.lowercased() {
            case nil: problem("notification_type", "can't be blank")
            case let text?:
                if let type = PushNotificationType(rawValue: text) { notificationType = type } else {
                    problem("notification_type", "is not included in the list: \(text) (push or email)")
                }
            }
            var pushType: PushChannel?
            if notificationType == .push, let text = field("push_type")?.lowercased() {
                pushType = PushChannel(rawValue: text)
                if pushType == nil || pushType == .email {
                    problem("push_type", "is not included in the list: \(text) (apns, apns_voip, gcm, mpns or bbps)")
                }
            }
            let environment = Self.environment(field("environment"), key: "environment", &problems) ?? .development
            let recipients = PushRecipients(userIds: ids("user[ids]", "event[user][ids]"),
                                            externalUserIds: ids("external_user[ids]", "event[external_user][ids]"),
                                            tagsAny: r.list("event[user][tags][any]") ?? [],
                                            tagsAll: r.list("event[user][tags][all]") ?? [],
                                            tagsExclude: r.list("event[user][tags][exclude]") ?? [])
            if recipients.isEmpty && problems.isEmpty {
                problem("base", "No recipients: give event[user][ids], event[external_user][ids] or event[user][tags]")
            }
            let date = number("date"), period = number("period")
            var eventType = period != nil ? PushEventType.periodDate : date != nil ? .fixedDate : .oneShot
            if let text = field("event_type")?.lowercased() {
                if let type = PushEventType(rawValue: text) { eventType = type } else {
                    problem("event_type", "is not included in the list: \(text) (one_shot, fixed_date or period_date)")
                }
            }
            draft = PushEventDraft(notificationType: notificationType, pushType: pushType, environment: environment,
                                   eventType: eventType, message: "", name: field("name"), date: date,
                                   endDate: number("end_date"), period: period, recipients: recipients)
        }
        let message = r.parameter("event[message]") ?? ""
        if existing == nil && message.isEmpty { problem("message", "can't be blank") }
        if let name = draft.name, name.count > Self.longestEventName {
            problem("name", "is too long (maximum is \(Self.longestEventName) characters)")
        }
        let dateChanged = r.parameter("event[date]") != nil
        switch draft.eventType {
        case .oneShot:
            if draft.date != nil { problem("date", "must be blank for a one_shot event (it occurs at once)") }
            if draft.period != nil { problem("period", "must be blank for a one_shot event") }
        case .fixedDate:
            if draft.date == nil { problem("date", "can't be blank for a fixed_date event") }
            else if let date = draft.date, (existing == nil || dateChanged), date < Int(now()) {
                problem("date", "can't be in the past for a fixed_date event")
            }
            if draft.period != nil { problem("period", "must be blank for a fixed_date event") }
        case .periodDate:
            if draft.date == nil { problem("date", "can't be blank for a period_date event") }
            if let period = draft.period {
                if !Self.eventPeriods.contains(period) { problem("period", "must be 86400, 604800, 2592000 or 31557600 (seconds)") }
            } else {
                problem("period", "can't be blank for a period_date event")
            }
        }
        if let date = draft.date, let endDate = draft.endDate, endDate < date { problem("end_date", "can't be less than the date") }
        var tooLarge: PushMessageRefusal?
        if !message.isEmpty {
            do throws(PushMessageRefusal) {
                draft.message = try PushMessage.stored(message, channel: draft.channel)
            } catch {
                if error.status == 422 { problem("message", error.message) } else { tooLarge = error }
            }
        }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        if let tooLarge { throw .field(tooLarge.status, "message", tooLarge.message) }
        return draft
    }
}
