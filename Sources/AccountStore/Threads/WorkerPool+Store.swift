import Workers

extension WorkerPool {
    /// Jobs that may wait for a store's threads. Each waiting job is a caller suspended on it, in
    /// the server at most one per open HTTP connection (4,096 by default) and a few background
    /// tasks, so in service the bound is never reached; it keeps a runaway from queueing without end.
    public static var storeQueueLimit: Int { 16_384 }

    /// The threads of a blocking database backend (SQLite, libpq): one per connection, each owning
    /// its connection, callers suspended meanwhile so the cooperative pool never blocks. A job the
    /// pool refuses throws `StoreError.unavailable`: "store is closed" once stopped (by `close()`),
    /// "store is busy" with ``storeQueueLimit`` jobs waiting.
    public static func store(name: String, connections: [Resource]) -> WorkerPool {
        WorkerPool(name: name, resources: connections, queueLimit: storeQueueLimit) { refusal in
            switch refusal {
            case .stopped: StoreError.unavailable(reason: "store is closed")
            case .full: StoreError.unavailable(reason: "store is busy: \(storeQueueLimit) jobs wait for a connection")
            }
        }
    }
}
