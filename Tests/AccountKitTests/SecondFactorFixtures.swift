import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// An account on an in-process server with its authenticator app turned on through the SDK, and
/// a session manager on the server's clock (signed out, so each test logs in as it needs).
struct SecondFactorFixture {
    let server: InProcessServer
    let account: TestAccount
    let secret: [UInt8]
    let recoveryCodes: [String]

    /// A manager on the server's clock, its session kept in memory.
    func manager(language: Language = .en) -> SessionManager {
        SessionManager(client: server.client(language: language), store: InMemoryCredentialStore(), now: server.clock.function)
    }

    /// The authenticator's code in a fresh 30-second step (the clock moves to it), so no code is
    /// used twice.
    func nextCode() -> String { TOTPGenerator.code(secret: secret, at: server.clock.nextStepInProcess()) }

    /// A code that is not the authenticator's now (nor one step either side).
    func wrongCode() -> String {
        let now = server.clock.now
        let near = Set([-30.0, 0, 30].map { TOTPGenerator.code(secret: secret, at: now.addingTimeInterval($0)) })
        return (0...9).map { String(repeating: String($0), count: 6) }.first { !near.contains($0) }!
    }

    /// A new verified account on a new server, enrolled and confirmed with ``SessionManager``.
    static func make(_ options: [String] = []) async throws -> SecondFactorFixture {
        let server = try await inProcessServer(options)
        let account = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        try await manager.logIn(account.login)
        let enrollment = try await manager.enrollTOTP(password: account.password)
        let secret = try #require(TOTPGenerator.base32Decode(enrollment.secret))
        let codes = try await manager.confirmTOTP(code: TOTPGenerator.code(secret: secret, at: server.clock.nextStepInProcess()))
        try await manager.logOut()
        return SecondFactorFixture(server: server, account: account, secret: secret, recoveryCodes: codes)
    }

    /// Logs `manager` in with the password; the challenge it answers with.
    func challenge(_ manager: SessionManager, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SecondFactorChallenge {
        do {
            try await manager.logIn(account.login)
        } catch AccountError.secondFactorRequired(let challenge) {
            return challenge
        }
        throw TestFailure("the login did not ask for a second factor")
    }
}
