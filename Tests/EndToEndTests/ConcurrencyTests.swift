import AccountAPI
import Foundation
import TestSupport
import Testing

/// Many hashing logins at once do not stall or fail the cheap requests beside them.
@Suite struct ConcurrencyTests {
    @Test func fiftyLoginsAndTwoHundredCheapRequestsAllSucceed() async throws {
        // Production hashing cost (19 MiB, 2 passes), so the logins really queue on the hash pool.
        let server = try await ServerProcess.start(["--allow-unverified-login", "--hash-memory", "19456", "--hash-passes", "2", "--login-attempts", "0"])
        let account = TestAccount("crowd")
        try await server.signUp(account)

        let statuses = try await withThrowingTaskGroup(of: (String, Int, String?).self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let reply = try await server.client.send("POST", "/auth/login", json: ["login": account.email, "password": account.password])
                    return ("login", reply.status, try? reply.decode(TokenPair.self).refresh)
                }
            }
            for index in 0..<200 {
                let path = index.isMultiple(of: 2) ? "/healthz" : "/auth/policy"
                group.addTask { (path, try await server.client.send("GET", path).status, nil) }
            }
            var all: [(String, Int, String?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(statuses.count == 250)
        let failures = statuses.filter { $0.1 != 200 }
        #expect(failures.isEmpty, "\(failures.count) failed: \(failures.prefix(10))")

        // Fifty logins made fifty distinct sessions.
        let refreshTokens = statuses.compactMap(\.2)
        #expect(refreshTokens.count == 50 && Set(refreshTokens).count == 50)
        let policy = try await server.client.send("GET", "/auth/policy").decode(Policy.self)
        #expect(policy.mbtiTypes.count == 16 && !policy.emailVerificationRequired)
        await server.stop()
    }
}
