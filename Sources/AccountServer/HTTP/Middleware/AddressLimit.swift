import AccountCore
import AccountStore

/// Counts a group's requests per client address in one-minute windows before any hashing
/// happens: in this process, or in the database when several servers share the counts (a write,
/// so those requests wait for it).
final class AddressLimit: Middleware {
    /// Requests per minute and address; 0 turns the limit off.
    let limit: Int
    /// The counts of this process.
    let local: AddressRateLimiter
    /// The store the counts live in when servers share them; `nil` to count in this process.
    let shared: (any AccountStore)?

    init(limit: Int, local: AddressRateLimiter, shared: (any AccountStore)?) {
        (self.limit, self.local, self.shared) = (limit, local, shared)
    }

    func enter(_ context: inout RequestContext) throws -> Readiness {
        guard limit > 0 else { return .done }
        guard shared == nil else { return .mustWait }
        if let retryAfter = local.check(context.clientAddress, now: context.now) {
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        return .done
    }

    func enterWaiting(_ context: inout RequestContext) async throws {
        guard let shared else { return _ = try enter(&context) }
        let (key, now) = ("address:" + context.clientAddress, context.now)
        let counter = try await shared.write { try $0.incrementRateCounter(key: key, now: now, window: 60) }
        if counter.count > limit {
            throw APIError.rateLimited(retryAfter: max(1, Int((60 - now.timeIntervalSince(counter.windowStart)).rounded(.up))))
        }
    }
}
