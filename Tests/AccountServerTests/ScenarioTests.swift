import InProcess
import Scenarios
import Testing

/// Every scenario of `Tests/Scenarios` on the app in this process; EndToEndTests runs the same
/// ones on the server binary.
@Suite("Scenarios in process")
struct InProcessScenarioTests {
    @Test("each scenario", arguments: Scenario.all)
    func scenario(_ scenario: Scenario) async throws {
        try await scenario.run(on: InProcessServer.Kind())
    }
}
