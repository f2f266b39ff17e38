import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// The reset's code step has a way back and a way on: another address, and a new code once the
/// countdown (a function of the injected clock, kept per address) is over.
@MainActor @Suite(.serialized) struct PasswordResetResendTests {
    @Test func aNewCodeWaitsForTheCountdownThenReplacesTheOld() async throws {
        let clock = TestClock.atNow()
        try await withModelServer(["--allow-unverified-login", "--mail-interval", "0"], clock: clock) { server, client in
            _ = try await client.signUp(SignUpRequest(username: "민수", email: "minsu@example.com", password: "correct horse battery", mbti: .enfp))
            _ = try await server.mail.code(to: "minsu@example.com")

            let form = PasswordResetForm(session: .inMemory(client), email: "minsu@example.com", now: clock.function)
            #expect(form.canRequestCode(at: clock.now))
            #expect(form.resendAvailableAt == nil)
            await form.requestCode()
            #expect(form.phase == .codeSent, "\(form.message ?? "")")
            #expect(form.resendCountdown(at: clock.now) == 60)
            #expect(!form.canRequestCode(at: clock.now))
            _ = try await server.mail.code(to: "minsu@example.com", skipping: 1)
            form.code = "12"

            await form.requestCode()
            #expect(server.mail.messages(to: "minsu@example.com").count == 2, "nothing is sent during the countdown")
            #expect(form.code == "12")

            clock.advance(30)
            #expect(form.resendCountdown(at: clock.now) == 30)
            clock.advance(30)
            #expect(form.canRequestCode(at: clock.now))
            await form.requestCode()
            #expect(form.phase == .codeSent)
            #expect(form.code.isEmpty, "the field waits for the new code")
            #expect(form.resendCountdown(at: clock.now) == 60, "the countdown starts again")
            let newCode = try await server.mail.code(to: "minsu@example.com", skipping: 2)

            form.code = newCode
            form.newPassword = "a brand new passphrase"
            await form.confirm()
            #expect(form.phase == .done, "\(form.message ?? "") \(form.errors(for: .code))")
        }
    }

    @Test func anotherAddressGoesBackToTheAddressAndKeepsTheFirstCountdown() async throws {
        let clock = TestClock.atNow()
        try await withModelServer(["--mail-interval", "0"], clock: clock) { _, client in
            let form = PasswordResetForm(session: .inMemory(client), email: "typo@exmaple.com", now: clock.function)
            await form.requestCode()
            #expect(form.phase == .codeSent)
            form.code = "123"

            form.changeEmail()

            #expect(form.phase == .enterEmail)
            #expect(form.email == "typo@exmaple.com", "the address stays, to be corrected")
            #expect(form.code.isEmpty)
            #expect(!form.canRequestCode(at: clock.now), "the same address still counts down")
            form.email = "right@example.com"
            #expect(form.canRequestCode(at: clock.now), "the server's limit is per address")
            await form.requestCode()
            #expect(form.phase == .codeSent)
            form.changeEmail()
            form.email = " TYPO@exmaple.com "
            #expect(form.resendCountdown(at: clock.now) > 0, "case and spaces ignored")
        }
    }

    @Test func theServersRetryAfterStartsTheCountdown() {
        let clock = TestClock.atNow()
        let form = PasswordResetForm(
            session: .inMemory(AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)),
            email: "minsu@example.com", now: clock.function)
        form.apply(.rateLimited(retryAfter: 42))
        #expect(form.resendCountdown(at: clock.now) == 42)
        #expect(form.message != nil)
    }
}
