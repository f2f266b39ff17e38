import AccountAPI
import Foundation
import TestSupport
import Testing

/// Password change and reset, sessions, deletion and session lifetimes, against the real binary.
@Suite struct LifecycleTests {
    @Test func passwordChangeResetSessionsAndDeletion() async throws {
        let (server, clock) = try await AbuseTests().serverWithClock()
        let (account, first) = try await server.verifiedAccount("life")
        let second = try await server.logIn(account)
        let (_, stranger) = try await server.verifiedAccount("stranger")

        // Sessions: both listed, the caller's marked; another account's session is 404.
        let list = try await server.client.send("GET", "/auth/sessions", token: first.access).decode(SessionList.self)
        #expect(list.sessions.count == 2 && list.sessions.filter(\.current).count == 1)
        let strangers = try await server.client.send("GET", "/auth/sessions", token: stranger.access).decode(SessionList.self)
        let foreign = try #require(strangers.sessions.first?.id)
        #expect(try await server.client.send("DELETE", "/auth/sessions/\(foreign.uuidString.lowercased())", token: first.access).status == 404)

        // A password change keeps this session and ends the other.
        let newPassword = "Changed-\(UUID().uuidString)"
        #expect(try await server.client.send("POST", "/auth/password/change", json: ["current_password": account.password, "new_password": newPassword], token: first.access).status == 204)
        #expect(try await server.me(first.access).status == 200)
        #expect(try await server.me(second.access).problem?.code == .sessionRevoked)

        // A reset by code ends every session and logs nobody in (a minute after the sign-up's code:
        // one message a minute per address).
        clock.set(ahead: 61)
        #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": account.email]).status == 202)
        let code = try await server.mail.code(to: account.email, skipping: 1)
        let resetPassword = "Reset-\(UUID().uuidString)"
        let reset = try await server.client.send("POST", "/auth/password/reset/confirm", json: ["email": account.email, "code": code, "new_password": resetPassword])
        #expect(reset.status == 204 && reset.body.isEmpty)
        #expect(try await server.me(first.access).problem?.code == .sessionRevoked)
        let login = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": resetPassword]).decode(TokenPair.self)

        // Deleting needs the password; afterwards the nickname and address are free again.
        #expect(try await server.client.send("DELETE", "/auth/me", json: ["password": newPassword], token: login.access).problem?.code == .invalidCredentials)
        #expect(try await server.client.send("DELETE", "/auth/me", json: ["password": resetPassword], token: login.access).status == 204)
        #expect(try await server.me(login.access).problem?.code == .sessionRevoked)
        #expect(try await server.client.send("POST", "/auth/signup", model: account.signUpRequest).status == 202)
        await server.stop()
    }

    @Test func aSessionEndsAfterNinetyDaysHoweverOftenItIsUsed() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock.serverArguments)
        var (_, pair) = try await server.verifiedAccount("ninety")
        for days in [29, 58, 87] {
            clock.set(ahead: TimeInterval(days * 24 * 3600))
            let refreshed = try await server.refresh(pair.refresh)
            #expect(refreshed.status == 200, "day \(days)")
            pair = try refreshed.decode(TokenPair.self)
        }
        #expect(pair.refreshExpiresIn <= 3 * 24 * 3600 + 60, "the absolute end shows in refresh_expires_in")
        clock.set(ahead: TimeInterval(90 * 24 * 3600 + 60))
        #expect(try await server.refresh(pair.refresh).problem?.code == .tokenExpired)
        await server.stop()
    }
}
