/// Waits, without blocking a thread, until `condition` holds, checking every few milliseconds.
///
/// For state another thread changes (a pool's queue, a socket's count of connections), never
/// to time a result: the timeout only keeps a broken test from hanging, so it is long (a loaded
/// machine may keep a test's tasks from running for seconds).
/// - Throws: ``NeverHappened`` naming `what` when `timeout` passes first.
public func eventually(_ what: String, timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw NeverHappened(description: "never: \(what)") }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// What ``eventually(_:timeout:_:)`` waited for did not happen in time.
public struct NeverHappened: Error, CustomStringConvertible {
    public let description: String
}
