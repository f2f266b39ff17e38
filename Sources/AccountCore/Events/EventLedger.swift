import AccountStore

/// The events of one write transaction: each one's history row is written in the transaction as
/// it is recorded, and the other sinks take them once it committed (``DomainEvents/write(_:)``).
package struct EventLedger {
    /// The transaction the events' rows go into.
    package let tx: any StoreTransaction
    /// Where the ids of the history rows come from.
    private let random: Randomness
    /// The events recorded so far.
    private(set) var events: [DomainEvent] = []

    init(tx: any StoreTransaction, random: Randomness) {
        self.tx = tx
        self.random = random
    }

    /// Records `event`: its history row now, in ``tx``; the rest after the commit.
    package mutating func record(_ event: DomainEvent) throws {
        try SecurityHistorySink.write(event, id: random.uuid(), in: tx)
        events.append(event)
    }
}
