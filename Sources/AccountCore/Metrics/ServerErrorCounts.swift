import Synchronization

/// 5xx replies counted by reason, for `http_server_errors_total{reason,sqlstate}`.
///
/// Reasons come from a fixed set of kinds and PostgreSQL's SQLSTATEs, so there are few; still,
/// past ``limit`` distinct reasons the rest are counted as ``ServerErrorReason/overflow``, so no
/// database can grow the label set without bound.
package final class ServerErrorCounts: Sendable {
    package static let limit = 64

    private let counts = Mutex<[ServerErrorReason: Int]>([:])

    /// Counts one 5xx reply.
    package func record(_ reason: ServerErrorReason) {
        counts.withLock { counts in
            let key = counts[reason] != nil || counts.count < Self.limit - 1 ? reason : ServerErrorReason.overflow
            counts[key, default: 0] += 1
        }
    }

    /// The count of one reason.
    package func count(_ reason: ServerErrorReason) -> Int { counts.withLock { $0[reason] ?? 0 } }

    /// Every reason seen so far with its count, ordered by kind and SQLSTATE.
    package func all() -> [(ServerErrorReason, Int)] {
        counts.withLock { counts in
            counts.sorted { ($0.key.kind, $0.key.sqlState ?? "") < ($1.key.kind, $1.key.sqlState ?? "") }
        }
    }
}
