import AccountStore
import AccountStoreCache
import Foundation

/// What operators' probes and scrapers read: whether the server can serve, and its metrics.
struct ProbeOperations {
    let services: Services

    /// Whether the database answers.
    enum Readiness: Equatable {
        case ready
        case databaseUnreachable
    }

    /// Whether the server can serve: the database answers a ping.
    func readiness() async -> Readiness {
        do {
            try await services.store.ping()
            return .ready
        } catch {
            return .databaseUnreachable
        }
    }

    /// Every metric in the Prometheus text format, with the password hashing queue and the
    /// store's read model as they are now.
    func metricsText() -> String {
        services.metrics.render(hashQueueLength: services.passwords.pool.queueLength, readModel: services.store.readModelCounts)
    }
}
