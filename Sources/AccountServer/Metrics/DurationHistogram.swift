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
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let index = Self.bounds.firstIndex { seconds <= $0.seconds } ?? Self.bounds.count
        slots[index].add()
        nanoseconds.add(Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000))
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
