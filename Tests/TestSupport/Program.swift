import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a program that ran to its end did: how it ended and everything it printed.
public typealias ProgramResult = (status: ExitStatus, stdout: String, stderr: String)

/// Runs programs to their end: `psql`, the cluster script, `openssl`, `swiftc`, `account`,
/// `account-server keys …`.
///
/// `posix_spawn` and `waitpid` on a thread of its own, with files for the three streams:
/// Foundation's `waitUntilExit` was seen to hang with several programs started at once, a daemon a
/// script leaves behind (PostgreSQL) kept a program started through `Process` from ending, and a
/// blocking wait on the cooperative pool starves every other test (servers seemed not to start).
/// Files need no draining, and the input is all there from the start.
public enum Program {
    /// Runs `executable arguments` with `stdin` as its whole input; kills it with SIGKILL and
    /// throws when it is still running after `timeout`.
    /// - Parameters:
    ///   - executable: a path, or a name looked up in `PATH` (through `/usr/bin/env`).
    ///   - environment: the program's whole environment; the test process's when `nil`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String = "",
        timeout: Duration = .seconds(60)
    ) async throws -> ProgramResult {
        let command = executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        return try await onThread { try runBlocking(command, environment: environment, stdin: stdin, timeout: timeout) }
    }

    private static func runBlocking(_ command: [String], environment: [String: String]?, stdin: String, timeout: Duration) throws -> ProgramResult {
        let scratch = try TemporaryFolder()
        let input = scratch.url.appendingPathComponent("stdin").path
        let output = scratch.url.appendingPathComponent("stdout").path
        let errors = scratch.url.appendingPathComponent("stderr").path
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: input))
        let pid = try spawn(command, environment: environment, files: [(0, input, O_RDONLY), (1, output, O_WRONLY | O_CREAT | O_TRUNC), (2, errors, O_WRONLY | O_CREAT | O_TRUNC)])
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { break }
            if ended == -1 && errno != EINTR { throw TestFailure("waitpid failed: errno \(errno)") }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw TestFailure("\(command.joined(separator: " ")) still running after \(timeout)")
            }
            usleep(5_000)
        }
        return (
            ExitStatus(waitStatus: status), (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }

    /// Starts `command` with `files` opened on its descriptors and no other descriptor of the
    /// test process (a copy of another child's pipe would keep that pipe from ending).
    private static func spawn(_ command: [String], environment: [String: String]?, files: [(Int32, String, Int32)]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, path, flags) in files { posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o600) }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = withLaunchLock {
            // Listed while no other test starts a program; closing one that went meanwhile is harmless.
            for descriptor in openDescriptors() where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
            return posix_spawn(&pid, command[0], &actions, nil, argv, &envp)
        }
        guard spawned == 0 else { throw TestFailure("cannot run \(command[0]): error \(spawned)") }
        return pid
    }

    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }
}

/// Runs `account-server arguments` (`keys rotate`, `migrate`, `--help`, …) to its end; the test
/// process's own `ACCOUNT_*` variables (the options' twins) do not reach it.
public func runServerCommand(_ arguments: [String], timeout: Duration = .seconds(15)) async throws -> ProgramResult {
    let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACCOUNT_") }
    return try await Program.run(try Binaries.server().path, arguments, environment: environment, timeout: timeout)
}
