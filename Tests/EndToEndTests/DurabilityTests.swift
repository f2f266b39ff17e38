import AccountAPI
import Foundation
import TestSupport
import Testing

/// What a reply acknowledged survives `kill -9`; SIGTERM lets requests in flight finish.
@Suite struct DurabilityTests {
    @Test func aMailedCodeStillVerifiesAfterKill9() async throws {
        let folder = try TemporaryFolder()
        let first = try await ServerProcess.start(in: folder)
        let account = TestAccount("durable")
        try await first.signUp(account)
        // Wait for the mail, so the kill cannot land inside delivery: a message claimed by a process
        // that dies waits out the whole claim (60 s) before another server sends it.
        let code = try await MailFolder(folder: folder.mail).code(to: account.email)
        await first.kill9()

        let second = try await ServerProcess.start(in: folder)
        let verified = try await second.client.send("POST", "/auth/email/verify", model: EmailVerifyRequest(email: account.email, code: code))
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try await second.logIn(account)
        #expect(pair.user.username == account.username && pair.user.emailVerified)
        await second.stop()
    }

    @Test func anUnverifiedAccountSurvivesKill9AndLogsInWhenAllowed() async throws {
        let folder = try TemporaryFolder()
        let first = try await ServerProcess.start(in: folder)
        let account = TestAccount("durable")
        try await first.signUp(account)
        await first.kill9()

        let second = try await ServerProcess.start(in: folder, ["--allow-unverified-login"])
        let pair = try await second.logIn(account)
        #expect(pair.user.email == account.email && !pair.user.emailVerified)
        await second.stop()
    }

    @Test func tokensAcknowledgedBeforeKill9StillWork() async throws {
        let folder = try TemporaryFolder()
        let first = try await ServerProcess.start(in: folder)
        let (_, login) = try await first.verifiedAccount("durable")
        let rotated = try await first.refresh(login.refresh).decode(TokenPair.self)
        await first.kill9()

        let second = try await ServerProcess.start(in: folder)
        // The signing key and the session were on disk before the replies went out.
        #expect(try await second.me(rotated.access).status == 200)
        let next = try await second.refresh(rotated.refresh)
        #expect(next.status == 200, "\(next.text)")
        #expect(try next.decode(TokenPair.self).user == login.user)
        await second.stop()
    }

    @Test func sigtermLetsASlowLoginFinishAndExitsZero() async throws {
        // Costly hashing (64 MiB, 12 passes) keeps the login busy long after SIGTERM is sent.
        let server = try await ServerProcess.start(["--allow-unverified-login", "--hash-memory", "65536", "--hash-passes", "12"])
        let account = TestAccount("slow")
        try await server.signUp(account)

        let login = Task { (try await server.logIn(account), ContinuousClock.now) }
        let wrong = Task {
            try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong password 1"])
        }
        try await Task.sleep(for: .milliseconds(300))
        let signalled = ContinuousClock.now
        server.child.send(SIGTERM)

        let (pair, answered) = try await login.value
        #expect(answered > signalled, "the login was answered before SIGTERM, so nothing was in flight")
        #expect(pair.user.username == account.username)
        let refused = try await wrong.value
        #expect(refused.status == 401 && refused.problem?.code == .invalidCredentials)
        let status = await server.child.exitStatus(timeout: 20)
        #expect(status == ExitStatus(code: 0, signaled: false), "\(server.child.transcript)")
        await server.drained()
        #expect(server.child.standardOutput.text.contains("account-server: stopping"))
        // Stopped means stopped: nothing listens any more.
        await #expect(throws: (any Error).self) { try await server.client.send("GET", "/healthz") }
    }
}
