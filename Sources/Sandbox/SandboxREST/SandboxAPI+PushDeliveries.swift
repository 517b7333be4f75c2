// What the sandbox pushed (docs/protocol.md §14, "What was pushed"): its own route, not
// QuickBlox's, for the developer whose test asserts what their app would have pushed. A
// sandbox in memory has no file to read afterwards, so the record is served while it runs.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// `GET /sandbox/push_deliveries.json?event_id=&user_id=&page=&per_page=` with the account
    /// key in `QB-Account-Key` (no session): every delivery, oldest first, or one event's or one
    /// user's; `per_page` 1–1000, default 100. A page whose `items` are the deliveries themselves.
    func pushDeliveries(_ context: PublicContext) throws(RESTError) -> RESTResponse {
        try requireAccountKey(context)
        let r = context.request
        func number(_ name: String, _ range: ClosedRange<Int>) throws(RESTError) -> Int? {
            guard let text = r.parameter(name)?.trimmingSpaces, !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .field(422, name, "must be a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        let eventId = try number("event_id", 1...Int.max)
        let userId = try number("user_id", 1...Int.max)
        let page = try number("page", 1...1_000_000) ?? 1
        let perPage = try number("per_page", 1...1000) ?? 100
        let (total, items) = try storage { try push.deliveries(eventId: eventId, userId: userId, page: page, perPage: perPage) }
        return .json(200, .object([
            ("current_page", .int(page)),
            ("per_page", .int(perPage)),
            ("total_entries", .int(total)),
            ("items", .array(items.map(\.json))),
        ]))
    }
}
