import Foundation

/// Starts `process`, one launch at a time across the whole test run.
///
/// Foundation's `Process.run()` on Linux crashed (a bad `memcpy` inside it) when test suites in
/// several targets started programs at the same moment; all test targets share one process, so
/// they share this lock. Only the launch is serialized: the programs still run side by side.
public func launch(_ process: Process) throws {
    try withLaunchLock { try process.run() }
}

/// Runs `body` (a `posix_spawn`, say) while no other test starts a program.
public func withLaunchLock<T>(_ body: () throws -> T) rethrows -> T {
    try launchLock.withLock(body)
}

private let launchLock = NSLock()
