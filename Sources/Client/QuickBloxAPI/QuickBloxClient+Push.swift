/// Push notifications (docs/protocol.md §14), all through `send`: the user's subscribed
/// devices, and events: a push created (never repeated blindly: a POST that got no answer may
/// have been sent), listed, and one event's status read.
extension QuickBloxClient {
    /// `GET /subscriptions.json`: the session user's subscriptions, an array of
    /// `{"subscription":{…}}`; none is the hosted service's 404, an empty list here.
    package func pushSubscriptions() throws(QuickBloxError) -> [QBPushSubscription] {
        let json: JSONValue
        do { json = try send(.get, "/subscriptions.json") } catch where error.status == 404 { return [] }
        guard let items = json.arrayValue else { throw invalidResponse("GET /subscriptions.json", "no array of subscriptions") }
        var subscriptions: [QBPushSubscription] = []
        for item in items {
            guard let subscription = QBPushSubscription(json: item) else {
                throw invalidResponse("GET /subscriptions.json", "an item without a subscription id")
            }
            subscriptions.append(subscription)
        }
        return subscriptions
    }

    /// `POST /events.json` `{"event":{…}}`: the event as the server stored it (a one-shot
    /// push is delivered by then).
    package func createPushEvent(_ notification: QBPushNotification) throws(QuickBloxError) -> QBPushEvent {
        let body = notification.body
        return try parseEvent(try send(.post, "/events.json") { body }, request: "POST /events.json")
    }

    /// `GET /events.json?page=&per_page=`: the events the session's user created, a page at a
    /// time; items bare or `{"event":{…}}`.
    package func pushEvents(page: Int, perPage: Int) throws(QuickBloxError) -> QBPushEventPage {
        let json = try send(.get, "/events.json", query: [("page", String(page)), ("per_page", String(perPage))])
        return try parseNumberedPage(json, request: "GET /events.json", page: page, perPage: perPage,
                                     unreadable: "an item without an event id", item: QBPushEvent.init(json:))
    }

    /// `GET /events/{id}/status.json`: the event with its `status` and `deliveries_count`.
    package func pushEventStatus(id: Int) throws(QuickBloxError) -> QBPushEvent {
        let path = "/events/\(id)/status.json"
        return try parseEvent(try send(.get, path), request: "GET \(path)")
    }

    private func parseEvent(_ json: JSONValue, request: String) throws(QuickBloxError) -> QBPushEvent {
        guard let event = QBPushEvent(json: json) else { throw invalidResponse(request, "no \"event\" object with an id") }
        return event
    }
}
