import Scenarios
import Testing
import TestSupport

/// Every scenario of `Tests/Scenarios` on the server binary; AccountServerTests runs the same
/// ones on the app in its process.
@Suite("Scenarios on the binary")
struct BinaryScenarioTests {
    /// A few scenarios at a time: each starts its own servers, and this target's other suites run
    /// beside them in the same process, whose open files Foundation's `Process.run()` cannot
    /// take many more of (see scripts/test.sh).
    static let turns = Turns(4)

    @Test("each scenario", arguments: Scenario.all)
    func scenario(_ scenario: Scenario) async throws {
        try await Self.turns.take { try await scenario.run(on: ServerProcess.Kind()) }
    }
}

/// Lets at most `width` bodies run at once; the others wait, first come first served.
actor Turns {
    private let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ width: Int) { self.width = width }

    func take(_ body: @Sendable () async throws -> Void) async throws {
        if running < width {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { pass() }
        try await body()
    }

    /// Hands the turn to the next waiting body, or frees it.
    private func pass() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
