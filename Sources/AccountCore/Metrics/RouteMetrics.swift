import Synchronization

/// The request counts and latency of one route pattern.
///
/// Counting takes no lock: each `(method, status)` pair a route answers gets a slot of its own in
/// a small fixed table the first time it is seen (claimed with one compare-and-exchange) and is
/// counted there with one atomic add; the histogram takes no lock either. Only a route answering
/// more distinct pairs than the table holds counts the rest under a lock.
package final class RouteMetrics: Sendable {
    /// A `method` and `status` label pair.
    package struct Key: Hashable, Sendable, Comparable {
        package let method: String
        package let status: Int
        package static func < (lhs: Key, rhs: Key) -> Bool { (lhs.method, lhs.status) < (rhs.method, rhs.status) }
    }

    /// Methods that keep their name as a label; any other is `OTHER`, so a client cannot invent
    /// label values.
    package static let knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// One `(method, status)` pair's count; `code` 0 while the slot is free.
    private final class Slot: Sendable {
        package let code = Atomic<Int>(0)
        package let count = Atomic<Int>(0)
    }

    private static let slotCount = 16
    private let slots = (0..<RouteMetrics.slotCount).map { _ in Slot() }
    private let overflow = Mutex<[Int: Int]>([:])
    package let duration = DurationHistogram()

    /// Counts one reply and its latency.
    package func record(method: String, status: Int, duration elapsed: Duration) {
        count(Self.code(method: method, status: status))
        duration.observe(elapsed)
    }

    /// Every `(method, status)` seen so far with its count, in label order.
    package func requestCounts() -> [(Key, Int)] {
        var counts = overflow.withLock { $0 }
        for slot in slots {
            let code = slot.code.load(ordering: .acquiring)
            // A slot just claimed whose first count has not landed yet is left for the next reading.
            if code != 0, case let count = slot.count.load(ordering: .relaxed), count > 0 { counts[code, default: 0] += count }
        }
        return counts.map { (Self.key(of: $0.key), $0.value) }.sorted { $0.0 < $1.0 }
    }

    private func count(_ code: Int) {
        // Fibonacci hashing spreads the few codes a route sees over the table; probing is linear.
        let start = Int(truncatingIfNeeded: UInt(bitPattern: code &* -7_046_029_254_386_353_131) >> 60)
        for step in 0..<Self.slotCount {
            let slot = slots[(start + step) % Self.slotCount]
            var held = slot.code.load(ordering: .acquiring)
            if held == 0 {
                held = slot.code.compareExchange(expected: 0, desired: code, ordering: .acquiringAndReleasing).original
                if held == 0 { held = code }
            }
            if held == code {
                slot.count.add(1, ordering: .relaxed)
                return
            }
        }
        overflow.withLock { $0[code, default: 0] += 1 }
    }

    /// One number for a pair: the method's place in ``knownMethods`` (one based, `OTHER` after
    /// them) above the status; never 0.
    private static func code(method: String, status: Int) -> Int {
        let index = knownMethods.firstIndex(of: method) ?? knownMethods.count
        return (index + 1) << 16 | (status & 0xFFFF)
    }

    private static func key(of code: Int) -> Key {
        let index = (code >> 16) - 1
        return Key(method: index < knownMethods.count ? knownMethods[index] : "OTHER", status: code & 0xFFFF)
    }
}
