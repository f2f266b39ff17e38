import AccountStore
import AccountStoreCache
import Synchronization

/// The server's Prometheus metrics: requests by route, latency, 5xx reasons, login and refresh outcomes.
///
/// Requests are counted under the route pattern the router matched (``Router/Match/pattern``), so
/// a raw id never becomes a label value. Every route's counters are made once, before the first
/// request (``track(patterns:)``), so each appears in the text from the start and recording only
/// reads immutable tables and bumps atomics or a per-route lock.
///
/// ```swift
/// metrics.login(.success)
/// metrics.refresh(.reused)
/// let text = metrics.render(hashQueueLength: passwords.pool.queueLength)
/// ```
package final class Metrics: Sendable {
    /// The label of requests no route's path matched.
    package static let unmatched = "unmatched"

    // Set once, by `track(patterns:)`, as soon as the router exists (the router's handlers need
    // these metrics, so they are made first). The app records into the table `track` returns,
    // held in a constant of its own; this reference is for rendering (and tests).
    private let routes = AtomicLazyReference<RouteTable>()
    private let logins: [LoginOutcome: MetricCounter]
    private let refreshes: [RefreshOutcome: MetricCounter]
    private let rateLimited = MetricCounter()
    private let serverErrors = ServerErrorCounts()

    package init() {
        logins = Dictionary(uniqueKeysWithValues: LoginOutcome.allCases.map { ($0, MetricCounter()) })
        refreshes = Dictionary(uniqueKeysWithValues: RefreshOutcome.allCases.map { ($0, MetricCounter()) })
    }

    /// Makes the counters of every route pattern (the router's), once, before requests arrive,
    /// and returns them: replies are recorded into that table (``RouteTable/record(method:pattern:status:duration:)``).
    /// A later call changes nothing and returns the same table.
    @discardableResult
    package func track(patterns: [String]) -> RouteTable {
        routes.storeIfNil(RouteTable(patterns: patterns))
    }

    /// Counts one login attempt that got as far as an outcome.
    package func login(_ outcome: LoginOutcome) { logins[outcome]?.add() }

    /// Counts one refresh-token presentation that got as far as an outcome.
    package func refresh(_ outcome: RefreshOutcome) { refreshes[outcome]?.add() }

    /// Counts one `429 rate_limited` reply.
    package func rateLimitedReply() { rateLimited.add() }

    /// Counts one 5xx reply by its reason.
    package func serverError(_ reason: ServerErrorReason) { serverErrors.record(reason) }

    /// The 5xx count of one reason.
    package func serverErrors(_ reason: ServerErrorReason) -> Int { serverErrors.count(reason) }

    /// The login count of one outcome (the rendering and tests read it).
    package func logins(_ outcome: LoginOutcome) -> Int { logins[outcome]?.value ?? 0 }

    /// The refresh count of one outcome.
    package func refreshes(_ outcome: RefreshOutcome) -> Int { refreshes[outcome]?.value ?? 0 }

    /// Every metric in the Prometheus text format 0.0.4; `log` is what standard error's sink dropped.
    /// `readModel` is the store's read model (none when it keeps none).
    package func render(hashQueueLength: Int, log: LogSink.Counts = Log.sink.counts, readModel: SessionReadModel.Counts? = nil) -> String {
        var out = PrometheusText()
        let routes = (routes.load() ?? RouteTable(patterns: [])).byPattern
        let patterns = routes.keys.sorted()
        out.family("http_requests_total", type: "counter", help: "HTTP requests answered, by route pattern, method and status.")
        for pattern in patterns {
            for (key, count) in routes[pattern]?.requestCounts() ?? [] {
                out.sample("http_requests_total", ["route": pattern, "method": key.method, "status": String(key.status)], count)
            }
        }
        out.family("http_request_duration_seconds", type: "histogram", help: "Time from routing to reply, by route pattern.")
        for pattern in patterns {
            guard let (cumulative, sum) = routes[pattern]?.duration.snapshot() else { continue }
            let name = "http_request_duration_seconds"
            for (index, bound) in DurationHistogram.bounds.enumerated() {
                out.sample(name + "_bucket", ["route": pattern, "le": bound.label], cumulative[index])
            }
            out.sample(name + "_bucket", ["route": pattern, "le": "+Inf"], cumulative[cumulative.count - 1])
            out.sample(name + "_sum", ["route": pattern], PrometheusText.number(sum))
            out.sample(name + "_count", ["route": pattern], cumulative[cumulative.count - 1])
        }
        out.family("http_server_errors_total", type: "counter", help: "5xx replies by reason (kind of error) and the database's SQLSTATE, if any.")
        for (reason, count) in serverErrors.all() {
            out.sample("http_server_errors_total", ["reason": reason.kind, "sqlstate": reason.sqlState ?? ""], count)
        }
        out.family("account_logins_total", type: "counter", help: "Login attempts by outcome (malformed requests are not attempts).")
        for outcome in LoginOutcome.allCases {
            out.sample("account_logins_total", ["outcome": outcome.rawValue], logins(outcome))
        }
        out.family("account_refreshes_total", type: "counter", help: "Refresh-token presentations by outcome.")
        for outcome in RefreshOutcome.allCases {
            out.sample("account_refreshes_total", ["outcome": outcome.rawValue], refreshes(outcome))
        }
        out.family("account_rate_limited_total", type: "counter", help: "Requests refused with 429 rate_limited (address limit, login back-off, code resend).")
        out.sample("account_rate_limited_total", [:], rateLimited.value)
        out.family("password_hash_queue_length", type: "gauge", help: "Password hashes waiting for a thread of the hashing pool.")
        out.sample("password_hash_queue_length", [:], hashQueueLength)
        out.family("log_lines_dropped_total", type: "counter", help: "Log lines dropped because standard error did not take them as fast as they came (request lines go first).")
        out.sample("log_lines_dropped_total", [:], log.dropped)
        out.family("log_event_lines_dropped_total", type: "counter", help: "The security events, server errors and warnings among them: only when even the buffer's reserve was full.")
        out.sample("log_event_lines_dropped_total", [:], log.eventsDropped)
        if let readModel { renderReadModel(readModel, into: &out) }
        return out.text
    }

    /// The read model's families, when the store keeps one.
    private func renderReadModel(_ model: SessionReadModel.Counts, into out: inout PrometheusText) {
        out.family("read_model_lookups_total", type: "counter", help: "Sessions authentication looked up in the read model, by result (a miss reads the database).")
        out.sample("read_model_lookups_total", ["result": "hit"], model.hits)
        out.sample("read_model_lookups_total", ["result": "miss"], model.misses)
        out.family("read_model_invalidations_total", type: "counter", help: "Sessions or accounts dropped from the read model by a write of this server.")
        out.sample("read_model_invalidations_total", [:], model.invalidations)
        out.family("read_model_clears_total", type: "counter", help: "Times the whole read model was dropped: SQLite, the database file changed outside this server (and at its first check); PostgreSQL, the change listener connected or stopped being caught up.")
        out.sample("read_model_clears_total", [:], model.clears)
        out.family("read_model_evictions_total", type: "counter", help: "Sessions dropped from the full read model to make room.")
        out.sample("read_model_evictions_total", [:], model.evictions)
        out.family("read_model_entries", type: "gauge", help: "Sessions the read model holds now.")
        out.sample("read_model_entries", [:], model.entries)
        out.family("read_model_capacity", type: "gauge", help: "Sessions the read model holds at most (--read-model-entries).")
        out.sample("read_model_capacity", [:], model.capacity)
        guard let caughtUp = model.listenerCaughtUp else { return }
        out.family("read_model_notifications_total", type: "counter", help: "Sessions or accounts dropped from the read model because the database announced another writer's change (PostgreSQL).")
        out.sample("read_model_notifications_total", [:], model.notifications)
        out.family("read_model_listener_caught_up", type: "gauge", help: "1 while the change listener is connected and caught up (the read model answers), 0 while every lookup reads the database (PostgreSQL).")
        out.sample("read_model_listener_caught_up", [:], caughtUp ? 1 : 0)
        out.family("read_model_listener_connects_total", type: "counter", help: "Times the change listener connected; each empties the read model (PostgreSQL).")
        out.sample("read_model_listener_connects_total", [:], model.listenerConnects)
    }
}
