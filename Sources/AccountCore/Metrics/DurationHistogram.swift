/// A latency histogram with Prometheus' bucket bounds from 1 ms to 10 s, one atomic per bucket.
package final class DurationHistogram: Sendable {
    /// Upper bounds in seconds, with their label text so rendering never reformats a double.
    package static let bounds: [(seconds: Double, label: String)] = [
        (0.001, "0.001"), (0.0025, "0.0025"), (0.005, "0.005"), (0.01, "0.01"), (0.025, "0.025"),
        (0.05, "0.05"), (0.1, "0.1"), (0.25, "0.25"), (0.5, "0.5"), (1, "1"), (2.5, "2.5"), (5, "5"), (10, "10"),
    ]

    /// ``bounds`` in whole microseconds, for finding a bucket without floating point (an instance
    /// constant: no lazy global on the path every request takes).
    private let boundMicroseconds = DurationHistogram.bounds.map { Int64(($0.seconds * 1e6).rounded()) }

    // Per-bucket (not cumulative) counts; the last slot holds observations above every bound.
    private let slots = (0...DurationHistogram.bounds.count).map { _ in MetricCounter() }
    private let nanoseconds = MetricCounter()

    /// Records one observation.
    package func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        slots[bucket(seconds: seconds, attoseconds: attoseconds)].add()
        self.nanoseconds.add(nanoseconds)
    }

    /// The slot of a duration: the first bound it does not exceed, else the last.
    package func bucket(seconds: Int64, attoseconds: Int64) -> Int {
        // Microseconds, rounded up, so a duration just above a bound is not counted under it.
        let micro = seconds * 1_000_000 + (attoseconds + 999_999_999_999) / 1_000_000_000_000
        return boundMicroseconds.firstIndex { micro <= $0 } ?? boundMicroseconds.count
    }

    /// A consistent-enough reading: cumulative bucket counts (the last is `+Inf`), and the sum.
    ///
    /// The count is the `+Inf` bucket, so `_count` and `+Inf` always agree even while requests land.
    package func snapshot() -> (cumulative: [Int], sumSeconds: Double) {
        var running = 0
        let cumulative = slots.map { slot in
            running += slot.value
            return running
        }
        return (cumulative, Double(nanoseconds.value) / 1e9)
    }
}
