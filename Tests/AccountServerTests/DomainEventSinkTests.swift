import AccountAPI
import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// What the sinks make of an event, through the server's own recorder over its real store: a
/// history row in the transaction, the counters and metrics only once it committed.
@Suite struct DomainEventSinkTests {
    /// The hourly counts of `name` from the database, after the counters' flush.
    private func counted(_ name: ActivityCounter, _ harness: Harness) async throws -> Int64 {
        try await harness.app.services.activity.flush()
        let rows = try await harness.store.read { try $0.hourlyCounts(from: .distantPast) }
        return rows.filter { $0.name == name.rawValue }.reduce(0) { $0 + $1.value }
    }

    private func historyCount(_ userID: UUID, _ harness: Harness) async throws -> Int {
        try await harness.store.read { try $0.securityEvents(userID: userID, after: nil, limit: 1000).count }
    }

    @Test func aWriteThatRolledBackRecordsNothingAndOneThatCommittedRecordsEverySink() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(.minsu)
        let userID = try await harness.store.read { try $0.user(emailKey: EmailRule.key(TestAccount.minsu.email))!.id }
        let (events, metrics) = (harness.app.services.events, harness.app.metrics)
        let before = (try await counted(.loginsSucceeded, harness), metrics.logins(.success), try await historyCount(userID, harness))
        let event = DomainEvent(.signedIn(.password, .password), userID: userID, at: harness.clock.now, source: .none)

        await #expect(throws: APIError.self) {
            try await events.write { _, ledger in
                try ledger.record(event)
                throw APIError.accountDisabled
            }
        }
        #expect(try await counted(.loginsSucceeded, harness) == before.0, "a rolled-back sign-in was counted")
        #expect(metrics.logins(.success) == before.1)
        #expect(try await historyCount(userID, harness) == before.2, "a rolled-back sign-in left its history row")

        try await events.write { _, ledger in try ledger.record(event) }
        #expect(try await counted(.loginsSucceeded, harness) == before.0 + 1)
        #expect(metrics.logins(.success) == before.1 + 1)
        #expect(try await historyCount(userID, harness) == before.2 + 1)
    }

    @Test func aLoginThatAsksForItsSecondFactorCountsOnceInTheFiguresAndTheMetrics() async throws {
        let harness = try await Harness.make()
        let metrics = harness.app.metrics
        harness.app.services.events.record(DomainEvent(.secondFactorRequired(.password), userID: nil, at: harness.clock.now, source: .none))
        #expect(try await counted(.loginsMFARequired, harness) == 1)
        #expect(metrics.logins(.mfaRequired) == 1)
        // Apple's challenge is logged, and neither counted nor measured.
        harness.app.services.events.record(DomainEvent(.secondFactorRequired(.apple), userID: nil, at: harness.clock.now, source: .none))
        #expect(try await counted(.loginsMFARequired, harness) == 1)
        #expect(metrics.logins(.mfaRequired) == 1)
    }

    @Test func refusalsCountByRouteAndTheMetricsMeasureOnlyThePasswordLogin() {
        #expect(HourlyCounterSink.counter(of: .loginRefused(.password, .wrongProof)) == .loginsFailed)
        #expect(HourlyCounterSink.counter(of: .loginRefused(.secondFactor, .tooManyAttempts)) == .loginsRefused)
        #expect(HourlyCounterSink.counter(of: .loginRefused(.password, .addressLimited)) == nil, "refused before the sign-in: no attempt")
        #expect(HourlyCounterSink.counter(of: .loginRefused(.apple, .accountDisabled)) == nil)
        #expect(MetricsSink.loginOutcome(of: .loginRefused(.password, .addressLimited)) == .rateLimited)
        #expect(MetricsSink.loginOutcome(of: .loginRefused(.passkey, .wrongProof)) == nil)
        #expect(MetricsSink.loginOutcome(of: .loginRefused(.password, .tooManyAttempts)) == nil)
        #expect(MetricsSink.loginOutcome(of: .signedIn(.emailVerification, .emailCode)) == .signUpVerified)
        #expect(AuditLogSink.name(of: .checkFailed(.password, via: "login")) == "login_failed")
        #expect(AuditLogSink.name(of: .checkFailed(.password, via: "password_change")) == "password_check_failed")
        #expect(AuditLogSink.name(of: .checkFailed(.passkey, via: "passkey_delete")) == nil, "a passkey refusal is logged with its reason")
    }
}
