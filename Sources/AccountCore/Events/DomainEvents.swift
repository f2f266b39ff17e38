import AccountStore

/// The one way the operations record what happened (``DomainEvent``): into the security history,
/// the audit log, the hourly counters and the metrics, each a sink that maps the event or ignores it.
///
/// Inside a write, ``write(_:)`` hands the transaction an ``EventLedger``: the history rows go into
/// that transaction, and the other sinks run only after it committed (never for work that rolled
/// back). ``record(_:)`` is for what has no transaction, a refusal.
///
/// ```swift
/// let session = try await services.events.write { tx, ledger in
///     let opened = try services.sessions.openSession(for: user, userAgent: agent, origin: origin, now: now, in: tx)
///     try ledger.record(caller.event(.signedIn(.password, .password), userID: user.id))
///     return opened
/// }
/// services.events.record(caller.event(.loginRefused(.password, .backedOff), userID: id))
/// ```
package struct DomainEvents: Sendable {
    private let store: any AccountStore
    private let random: Randomness
    private let counters: HourlyCounterSink
    private let metrics: MetricsSink

    package init(store: any AccountStore, random: Randomness, counters: ActivityCounters, metrics: Metrics) {
        self.store = store
        self.random = random
        self.counters = HourlyCounterSink(counters: counters)
        self.metrics = MetricsSink(metrics: metrics)
    }

    /// Runs `body` in one write transaction with a ledger of its events, then publishes them.
    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction, inout EventLedger) throws -> T) async throws -> T {
        let random = random
        let (value, events) = try await store.write { tx -> (T, [DomainEvent]) in
            var ledger = EventLedger(tx: tx, random: random)
            let value = try body(tx, &ledger)
            return (value, ledger.events)
        }
        for event in events { publish(event) }
        return value
    }

    /// Records an event of no transaction: it has no history row.
    package func record(_ event: DomainEvent) {
        publish(event)
    }

    /// Hands a committed event (or one of no transaction) to the sinks after the history.
    private func publish(_ event: DomainEvent) {
        AuditLogSink.write(event)
        counters.write(event)
        metrics.write(event)
    }
}
