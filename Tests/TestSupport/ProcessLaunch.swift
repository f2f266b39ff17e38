import Foundation

/// Starts `process`, one launch at a time in this test process.
///
/// Foundation's `Process.run()` on Linux crashed (a bad `memcpy` inside it) when suites started
/// programs at the same moment. The suites of a target run in parallel in one process, and a
/// plain `swift test` runs every target in one process too (`make test` gives each target its
/// own), so every launch takes this lock. Only the launch is serialized: the programs still run
/// side by side.
public func launch(_ process: Process) throws {
    try withLaunchLock { try process.run() }
}

/// Runs `body` (a `posix_spawn`, say) while no other test starts a program.
public func withLaunchLock<T>(_ body: () throws -> T) rethrows -> T {
    try launchLock.withLock(body)
}

private let launchLock = NSLock()
