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

    @Test func oneOutcomeIsOneEventWhoseLineTheKindCarries() {
        #expect(AuditLogSink.name(of: .loginRefused(.password, .backedOff, logged: true)) == "login_backoff")
        #expect(AuditLogSink.name(of: .loginRefused(.apple, .accountDisabled, logged: true)) == "login_refused")
        #expect(AuditLogSink.name(of: .loginRefused(.password, .backedOff)) == nil, "a refusal the sign-in threw is counted, not logged")
        #expect(AuditLogSink.name(of: .loginRefused(.secondFactor, .accountDisabled)) == nil, "a session refused to a disabled account: no line")
        #expect(HourlyCounterSink.counter(of: .loginRefused(.password, .backedOff, logged: true)) == .loginsRefused)
        #expect(MetricsSink.loginOutcome(of: .loginRefused(.password, .accountDisabled, logged: true)) == .emailNotVerified)
        #expect(AuditLogSink.name(of: .changed(.passkeyAdded, ["name": "Laptop"], logged: .passkeyAdded)) == "passkey_added")
        #expect(AuditLogSink.name(of: .changed(.recoveryCodeUsed, ["left": "9"])) == nil, "a step-up's recovery code: a row, no line")
        #expect(AuditLogSink.name(of: .sessionsEnded(count: 0, .logout)) == "logout", "a logout is logged even when no session was left")
        #expect(AuditLogSink.name(of: .sessionsEnded(count: 3, .passwordChanged)) == nil)
    }

    @Test func aChangeWritesItsRowAndItsLineTellsTheLogFields() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(.minsu)
        let userID = try await harness.store.read { try $0.user(emailKey: EmailRule.key(TestAccount.minsu.email))!.id }
        let before = try await harness.store.read { try $0.securityEvents(userID: userID, after: nil, limit: 1000) }
        let source = EventSource(requestID: "req-1", clientAddress: "192.0.2.7", userAgent: nil)
        try await harness.app.services.events.write { _, ledger in
            try ledger.record(DomainEvent(
                .changed(.passkeyAdded, ["name": "Laptop"], logged: .passkeyAdded), userID: userID, at: harness.clock.now, source: source,
                ["passkey_id": "p-1"]))
        }
        let after = try await harness.store.read { try $0.securityEvents(userID: userID, after: nil, limit: 1000) }
        #expect(after.count == before.count + 1)
        let row = try #require(after.first { $0.type == SecurityEventKind.passkeyAdded.rawValue })
        #expect(row.detail == #"{"name":"Laptop"}"#, "the row keeps its own detail, not the log line's")
        #expect(row.clientAddress == "192.0.2.7")
    }
}
