import AccountAPI
import AccountStore
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The hourly sweep forgets the addresses of sessions that ended by expiring (a revocation
/// forgets its own at once): idle past `--session-idle-ttl`, or past `--session-max-ttl`
/// however often refreshed; a live session keeps its address.
@Suite struct SessionAddressSweepTests {
    @Test func expiredSessionsLoseTheirAddressLiveOnesKeepIt() async throws {
        let harness = try await Harness.make {
            $0.sessionIdleTTL = 3600
            $0.sessionMaxTTL = 3 * 3600
        }
        let idle = try await harness.signedIn(.minsu)
        let second = try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "correct horse battery"])
        var kept = try second.decode(TokenPair.self)
        let policy = harness.app.services.sessions.policy
        func addresses() async throws -> [UUID: String?] {
            let sessions = try await harness.store.read { try $0.sessions(userID: idle.user.id) }
            return Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0.clientAddress) })
        }
        #expect(try await addresses().values.allSatisfy { $0 == "127.0.0.1" })
        #expect(try await SessionAddressSweep.sweep(harness.store, policy: policy, now: harness.clock.now) == 0)

        // Two hours on, refreshed every half hour: `kept` lives, `idle` went idle an hour in.
        for _ in 0..<4 {
            harness.clock.advance(1800)
            let refreshed = try await harness.send("POST", "/auth/refresh", json: ["refresh": kept.refresh])
            #expect(refreshed.status == 200, "\(refreshed.text)")
            kept = try refreshed.decode(TokenPair.self)
        }
        #expect(try await SessionAddressSweep.sweep(harness.store, policy: policy, now: harness.clock.now, batch: 1) == 1)
        var now = try await addresses()
        #expect(now.count == 2 && now.values.filter { $0 == nil }.count == 1 && now.values.contains("127.0.0.1"))
        #expect(try await SessionAddressSweep.sweep(harness.store, policy: policy, now: harness.clock.now) == 0)

        // Past its absolute end (three hours), however recently refreshed.
        harness.clock.advance(1800)
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": kept.refresh]).status == 200)
        harness.clock.advance(1800)
        #expect(try await SessionAddressSweep.sweep(harness.store, policy: policy, now: harness.clock.now) == 1)
        now = try await addresses()
        #expect(now.values.allSatisfy { $0 == nil })
    }
}
