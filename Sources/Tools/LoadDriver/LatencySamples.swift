/// Delivery latencies of one run, in microseconds, and what they add up to.
package struct LatencySamples {
    private var samples: [UInt32] = []

    package init(expected: Int = 0) { samples.reserveCapacity(expected) }

    package mutating func record(nanoseconds: UInt64) {
        samples.append(UInt32(clamping: nanoseconds / 1000))
    }

    package var count: Int { samples.count }

    /// The p-th percentile (0...100) in milliseconds, nearest rank; 0 with no samples.
    package func percentile(_ p: Double, sorted: [UInt32]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1000
    }

    package var summary: LatencySummary {
        let sorted = samples.sorted()
        let total = sorted.reduce(0.0) { $0 + Double($1) }
        return LatencySummary(
            count: sorted.count,
            p50Ms: percentile(50, sorted: sorted), p90Ms: percentile(90, sorted: sorted),
            p99Ms: percentile(99, sorted: sorted), maxMs: Double(sorted.last ?? 0) / 1000,
            meanMs: sorted.isEmpty ? 0 : total / Double(sorted.count) / 1000)
    }
}

package struct LatencySummary: Equatable {
    package var count: Int
    package var p50Ms: Double
    package var p90Ms: Double
    package var p99Ms: Double
    package var maxMs: Double
    package var meanMs: Double
}
