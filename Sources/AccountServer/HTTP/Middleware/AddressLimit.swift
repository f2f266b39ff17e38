import AccountCore
import AccountStore

/// Counts a group's requests per client address in one-minute windows before any hashing
/// happens: in this process, or in the database when several servers share the counts (a write,
/// so those requests wait for it). On the sign-in routes, a refusal is a sign-in refused
/// (``LoginRefusal/addressLimited``), recorded to `signIns`.
final class AddressLimit: Middleware {
    /// Requests per minute and address; 0 turns the limit off.
    let limit: Int
    /// The counts of this process.
    let local: AddressRateLimiter
    /// The store the counts live in when servers share them; `nil` to count in this process.
    let shared: (any AccountStore)?
    /// Where a sign-in route's refusals are recorded; `nil` off the sign-in routes.
    let signIns: DomainEvents?

    init(limit: Int, local: AddressRateLimiter, shared: (any AccountStore)?, signIns: DomainEvents? = nil) {
        (self.limit, self.local, self.shared, self.signIns) = (limit, local, shared, signIns)
    }

    /// The same limit and counts, its refusals recorded as sign-ins refused.
    func recordingSignIns(_ events: DomainEvents) -> AddressLimit {
        AddressLimit(limit: limit, local: local, shared: shared, signIns: events)
    }

    func enter(_ context: inout RequestContext) throws -> Readiness {
        guard limit > 0 else { return .done }
        guard shared == nil else { return .mustWait }
        if let retryAfter = local.check(context.clientAddress, now: context.now) {
            throw refusal(retryAfter: retryAfter, context)
        }
        return .done
    }

    func enterWaiting(_ context: inout RequestContext) async throws {
        guard let shared else { return _ = try enter(&context) }
        let (key, now) = ("address:" + context.clientAddress, context.now)
        let counter = try await shared.write { try $0.incrementRateCounter(key: key, now: now, window: 60) }
        if counter.count > limit {
            throw refusal(retryAfter: max(1, Int((60 - now.timeIntervalSince(counter.windowStart)).rounded(.up))), context)
        }
    }

    /// The `429 rate_limited` of a request over the limit, recorded first on a sign-in route.
    private func refusal(retryAfter: Int, _ context: RequestContext) -> APIError {
        if let signIns, let route = Self.signInRoute(context.route) {
            signIns.record(context.caller.event(.loginRefused(route, .addressLimited)))
        }
        return APIError.rateLimited(retryAfter: retryAfter)
    }

    /// The sign-in route of a route pattern.
    private static func signInRoute(_ pattern: String?) -> SignInRoute? {
        switch pattern {
        case "/auth/login": .password
        case "/auth/passkeys/login": .passkey
        case "/auth/mfa/verify": .secondFactor
        default: nil
        }
    }
}
