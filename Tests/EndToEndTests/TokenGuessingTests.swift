import AccountAPI
import Foundation
import TestSupport
import Testing

/// A stolen access token must not be a way to guess the password, over HTTP against the real
/// binary: password change and account deletion go through the login back-off.
@Suite struct TokenGuessingTests {
    @Test func aWrongPasswordBehindATokenIs403WithoutAChallengeAndBacksOffWithLogin() async throws {
        let server = try await ServerProcess.start()
        let (account, pair) = try await server.verifiedAccount("guessing")
        func change(_ current: String) async throws -> Reply {
            try await server.client.send("POST", "/auth/password/change", json: ["current_password": current, "new_password": "Fresh-\(UUID().uuidString)"], token: pair.access)
        }
        func delete(_ password: String) async throws -> Reply {
            try await server.client.send("DELETE", "/auth/me", json: ["password": password], token: pair.access)
        }
        func login(_ password: String) async throws -> Reply {
            try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": password])
        }
        let wrongChange = try await change("wrong 1 wrong")
        #expect(wrongChange.status == 403 && wrongChange.problem?.code == .invalidCredentials, "\(wrongChange.text)")
        #expect(wrongChange.header("WWW-Authenticate") == nil)
        let wrongDelete = try await delete("wrong 2 wrong")
        #expect(wrongDelete.status == 403 && wrongDelete.problem?.code == .invalidCredentials && wrongDelete.header("WWW-Authenticate") == nil)
        #expect(try await login("wrong 3 wrong").status == 401)
        #expect(try await change("wrong 4 wrong").status == 403)
        #expect(try await delete("wrong 5 wrong").status == 403)
        for reply in [try await change(account.password), try await delete(account.password), try await login(account.password)] {
            #expect(reply.status == 429 && reply.problem?.code == .rateLimited, "\(reply.text)")
            #expect((1...30).contains(Int(reply.header("Retry-After") ?? "") ?? 0))
            #expect(reply.header("WWW-Authenticate") == nil)
        }
        // The token was never the problem: the session lives on.
        #expect(try await server.me(pair.access).status == 200)
        await server.stop()
    }

    @Test func fiftyParallelGuessesBehindOneTokenGetAtMostFivePasswordChecks() async throws {
        let server = try await ServerProcess.start()
        let (_, pair) = try await server.verifiedAccount("parallel")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await server.client.send("POST", "/auth/password/change", json: ["current_password": "guess \(index) guess", "new_password": "Fresh-\(UUID().uuidString)"], token: pair.access).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 403 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 45)
        await server.stop()
    }
}
