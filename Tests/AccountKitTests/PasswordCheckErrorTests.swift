import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// A wrong password on password change or account deletion is `403 invalid_credentials`: the
/// token is fine, so the SDK keeps the session, never refreshes for it, and reports the back-off.
@Suite struct PasswordCheckErrorTests {
    @Test func aForbiddenInvalidCredentialsIsAWrongPasswordThatKeepsTheSession() {
        for status in [403, 401] {
            let error = AccountError(status: status, problem: .make(.invalidCredentials, status: status, language: .en), retryAfter: nil)
            #expect(error == .invalidCredentials, "\(status)")
            #expect(!error.endsSession)
        }
    }

    @Test func wrongPasswordsBehindASessionNeitherRefreshNorSignOutAndTheBackoffShows() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let counter = CountingTransport(over: server)
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: server.client(transport: counter.transport), store: store)
        let user = try await manager.logIn(account.login)
        let stored = try manager.stored()

        await #expect(throws: AccountError.invalidCredentials) {
            try await manager.changePassword(newPassword: "another long passphrase 42", proof: .password("not the password at all"))
        }
        await #expect(throws: AccountError.invalidCredentials) { try await manager.deleteAccount(password: "not the password either") }
        #expect(counter.count("/auth/refresh") == 0, "a wrong password is no reason to refresh")
        #expect(await manager.state == .signedIn(user))
        #expect(try manager.stored() == stored)

        for index in 0..<3 {
            await #expect(throws: AccountError.invalidCredentials) { try await manager.deleteAccount(password: "wrong \(index) wrong") }
        }
        // Backed off, even with the right password; the session stays.
        do {
            try await manager.changePassword(newPassword: "another long passphrase 42", proof: .password(account.password))
            Issue.record("a change during the back-off went through")
        } catch AccountError.rateLimited(let retryAfter) {
            #expect((1...30).contains(retryAfter ?? 0))
        }
        #expect(await manager.state == .signedIn(user))
        #expect(try await manager.me().id == user.id)
    }
}
