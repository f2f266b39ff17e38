import Synchronization

/// The request counts and latency of one route pattern.
///
/// Each route has its own lock (held for one dictionary increment), so requests to different
/// routes never contend; the histogram takes no lock at all.
final class RouteMetrics: Sendable {
    /// A `method` and `status` label pair.
    struct Key: Hashable, Sendable, Comparable {
        let method: String
        let status: Int
        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.method, lhs.status) < (rhs.method, rhs.status) }
    }

    /// Methods that keep their name as a label; any other is `OTHER`, so a client cannot invent
    /// label values.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private let counts = Mutex<[Key: Int]>([:])
    let duration = DurationHistogram()

    /// Counts one reply and its latency.
    func record(method: String, status: Int, duration elapsed: Duration) {
        let label = Self.knownMethods.contains(method) ? method : "OTHER"
        counts.withLock { $0[Key(method: label, status: status), default: 0] += 1 }
        duration.observe(elapsed)
    }

    /// Every `(method, status)` seen so far with its count, in label order.
    func requestCounts() -> [(Key, Int)] {
        counts.withLock { $0.sorted { $0.key < $1.key } }
    }
}
