import AccountAPI
import Foundation
import TestSupport
import Testing

/// Enumeration in time, against the real binary with real-sized hashing: a registered address's
/// reset confirmation takes as long as an unknown one's. The replies and the requests that follow
/// are compared in `Tests/Scenarios/EnumerationScenarios.swift`, both ways.
@Suite struct EnumerationTests {
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func resetConfirmationAnswersARegisteredAddressLikeAnUnknownOneInRepliesAndTime() async throws {
        // Real-sized hashing, so that a hash on one side would show in the time.
        let (server, clock) = try await AbuseTests().serverWithClock(["--hash-memory", "19456", "--hash-passes", "2"])
        let (account, _) = try await server.verifiedAccount("resetenum")
        let unknown = TestAccount("resetghost").email
        clock.set(ahead: 61)
        for email in [account.email, unknown] {
            #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": email]).status == 202)
        }
        let code = try await server.mail.code(to: account.email, skipping: 1)
        let wrong = code == "000000" ? "111111" : "000000"
        let local = String(account.email.prefix { $0 != "@" })
        func confirm(_ email: String, _ password: String) async throws -> (Reply, Double) {
            let start = ContinuousClock.now
            let reply = try await server.client.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": wrong, "new_password": password])
            let elapsed = start.duration(to: .now)
            return (reply, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        for password in ["a perfectly good new secret", "short", "password123", "x\(account.username)x", "\(local)-again", ""] {
            let (registered, _) = try await confirm(account.email, password)
            let (other, _) = try await confirm(unknown, password)
            #expect(registered.observable(exactWaits: false) == other.observable(exactWaits: false), "\(password): \(registered.text) / \(other.text)")
            #expect(registered.status == 400 || registered.status == 429, "\(registered.text)")
        }

        // Time: wrong codes with a password the account would accept, interleaved; against the
        // time of one password check (a failed login).
        var registeredTimes: [Double] = []
        var unknownTimes: [Double] = []
        var hashTimes: [Double] = []
        for index in 0..<15 {
            registeredTimes.append(try await confirm(account.email, "a perfectly good new secret").1)
            unknownTimes.append(try await confirm(unknown, "a perfectly good new secret").1)
            if index < 5 {
                let start = ContinuousClock.now
                _ = try await server.client.send("POST", "/auth/login", json: ["username": "nobody_\(index)", "password": "wrong password \(index)"])
                let elapsed = start.duration(to: .now)
                hashTimes.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        let difference = abs(Self.median(registeredTimes) - Self.median(unknownTimes))
        #expect(difference < Self.median(hashTimes) / 2,
                "registered \(Self.median(registeredTimes)) ms, unknown \(Self.median(unknownTimes)) ms, one hash \(Self.median(hashTimes)) ms")
        await server.stop()
    }
}
