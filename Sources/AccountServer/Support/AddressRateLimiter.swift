import AccountCore
import Foundation
import Synchronization

/// Counts requests per client address in one-minute windows, in this process.
///
/// Sharded so that concurrent requests from different addresses rarely share a lock.
public final class AddressRateLimiter: Sendable {
    private struct Window { var start: Date; var count: Int }
    private final class Shard: Sendable { let table = Mutex<[String: Window]>([:]) }
    private let shards: [Shard]
    private let limit: Int
    private let window: TimeInterval

    /// `limit` requests per `window` seconds per address; `limit == 0` turns the limiter off.
    public init(limit: Int, window: TimeInterval = 60, shards: Int = 16) {
        self.limit = limit
        self.window = window
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Counts one request; returns `nil` when allowed, else the seconds until the window ends.
    public func check(_ address: String, now: Date) -> Int? {
        guard limit > 0 else { return nil }
        let shard = shards[Int(UInt(bitPattern: address.hashValue) % UInt(shards.count))]
        return shard.table.withLock { table -> Int? in
            var entry = table[address] ?? Window(start: now, count: 0)
            if now.timeIntervalSince(entry.start) >= window { entry = Window(start: now, count: 0) }
            entry.count += 1
            if table.count > 100_000 {
                // Forget finished windows so a scan of many addresses cannot grow memory forever.
                table = table.filter { now.timeIntervalSince($0.value.start) < window }
            }
            table[address] = entry
            guard entry.count > limit else { return nil }
            return max(1, Int((window - now.timeIntervalSince(entry.start)).rounded(.up)))
        }
    }
}
