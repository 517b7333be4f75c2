/// Checks that each stream of messages (one sender's, of one kind, to one receiver)
/// arrives whole, once and in order: message n must follow message n-1.
package struct DeliveryLedger {
    private var last: [Int: Int] = [:]
    package private(set) var delivered = 0
    package private(set) var duplicates = 0
    package private(set) var gaps = 0

    package init() {}

    /// Records message `sequence` of `stream`; false when it is out of order or repeated.
    @discardableResult
    package mutating func record(stream: Int, sequence: Int) -> Bool {
        let previous = last[stream] ?? 0
        if sequence == previous + 1 {
            last[stream] = sequence
            delivered += 1
            return true
        }
        if sequence <= previous {
            duplicates += 1
        } else {
            gaps += 1
            delivered += 1
            last[stream] = sequence
        }
        return false
    }
}
