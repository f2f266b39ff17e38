import Testing
import TestSupport

/// One scenario of the account API, written once against ``TestServer`` and run both ways:
/// by AccountServerTests on the app in the test process, by EndToEndTests on the real binary.
///
/// A scenario starts its own servers from the kind it is given (`kind.start(["--option", …])`),
/// so it never sees another's accounts or mail, and asserts with `#expect` as any test does.
public struct Scenario: Sendable, CustomTestStringConvertible {
    /// The set it belongs to (a set is one file of this target).
    public let set: String
    /// What it shows, as a test's display name says it.
    public let name: String
    private let body: @Sendable (any TestServerKind) async throws -> Void

    public init(_ set: String, _ name: String, _ body: @escaping @Sendable (any TestServerKind) async throws -> Void) {
        self.set = set
        self.name = name
        self.body = body
    }

    public var testDescription: String { "\(set): \(name)" }

    /// The scenarios of one set, each a name and its body.
    public static func set(_ set: String, _ scenarios: [(String, @Sendable (any TestServerKind) async throws -> Void)]) -> [Scenario] {
        scenarios.map { Scenario(set, $0.0, $0.1) }
    }

    /// Runs the scenario on servers of `kind`.
    public func run(on kind: any TestServerKind) async throws { try await body(kind) }

    /// Every scenario, set by set.
    public static let all: [Scenario] =
        SignUpFlowScenarios.all + SessionScenarios.all + LifecycleScenarios.all + EnumerationScenarios.all
        + MailBudgetScenarios.all + VerifySignInScenarios.all + RefreshGraceScenarios.all
}
