/// A latency histogram with Prometheus' bucket bounds from 1 ms to 10 s, one atomic per bucket.
final class DurationHistogram: Sendable {
    /// Upper bounds in seconds, with their label text so rendering never reformats a double.
    static let bounds: [(seconds: Double, label: String)] = [
        (0.001, "0.001"), (0.0025, "0.0025"), (0.005, "0.005"), (0.01, "0.01"), (0.025, "0.025"),
        (0.05, "0.05"), (0.1, "0.1"), (0.25, "0.25"), (0.5, "0.5"), (1, "1"), (2.5, "2.5"), (5, "5"), (10, "10"),
    ]

    // Per-bucket (not cumulative) counts; the last slot holds observations above every bound.
    private let slots = (0...DurationHistogram.bounds.count).map { _ in MetricCounter() }
    private let nanoseconds = MetricCounter()

    /// Records one observation.
    func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        slots[Self.bucket(seconds: seconds, attoseconds: attoseconds)].add()
        self.nanoseconds.add(nanoseconds)
    }

    /// The slot of a duration: the first bound it does not exceed (``bounds`` written out as
    /// comparisons, for the path every request takes; a test checks they agree).
    static func bucket(seconds: Int64, attoseconds: Int64) -> Int {
        // Microseconds, rounded up, so a duration just above a bound is not counted under it.
        let micro = seconds * 1_000_000 + (attoseconds + 999_999_999_999) / 1_000_000_000_000
        switch micro {
        case ...1_000: return 0
        case ...2_500: return 1
        case ...5_000: return 2
        case ...10_000: return 3
        case ...25_000: return 4
        case ...50_000: return 5
        case ...100_000: return 6
        case ...250_000: return 7
        case ...500_000: return 8
        case ...1_000_000: return 9
        case ...2_500_000: return 10
        case ...5_000_000: return 11
        case ...10_000_000: return 12
        default: return 13
        }
    }

    /// A consistent-enough reading: cumulative bucket counts (the last is `+Inf`), and the sum.
    ///
    /// The count is the `+Inf` bucket, so `_count` and `+Inf` always agree even while requests land.
    func snapshot() -> (cumulative: [Int], sumSeconds: Double) {
        var running = 0
        let cumulative = slots.map { slot in
            running += slot.value
            return running
        }
        return (cumulative, Double(nanoseconds.value) / 1e9)
    }
}
