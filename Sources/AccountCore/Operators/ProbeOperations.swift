import AccountStore
import AccountStoreCache
import Foundation

/// What operators' probes and scrapers read: whether the server can serve, and its metrics.
package struct ProbeOperations {
    package let services: Services

    /// Whether the database answers.
    package enum Readiness: Equatable {
        case ready
        case databaseUnreachable
    }

    /// Whether the server can serve: the database answers a ping.
    package func readiness() async -> Readiness {
        do {
            try await services.store.ping()
            return .ready
        } catch {
            return .databaseUnreachable
        }
    }

    /// Every metric in the Prometheus text format, with the password hashing queue and the
    /// store's read model as they are now.
    package func metricsText() -> String {
        services.metrics.render(hashQueueLength: services.passwords.pool.queueLength, readModel: services.store.readModelCounts)
    }
}
