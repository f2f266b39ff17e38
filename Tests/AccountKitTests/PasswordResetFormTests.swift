import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// The password reset form: checks before sending, refusals on their fields, and the whole flow
/// against the real server.
@MainActor @Suite(.serialized) struct PasswordResetFormTests {
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    @Test func aMalformedAddressIsRefusedBeforeSending() async {
        let form = PasswordResetForm(session: .inMemory(Self.offline), email: "not an address")
        await form.requestCode()
        #expect(form.errors(for: .email).first != nil)
        #expect(form.phase == .enterEmail)
        form.email = "minsu@example.com"
        #expect(form.errors(for: .email).first == nil, "editing clears the error")
    }

    @Test func anUnreachableServerShowsAMessageAndStays() async {
        let form = PasswordResetForm(session: .inMemory(Self.offline), email: "minsu@example.com")
        await form.requestCode()
        #expect(form.phase == .enterEmail)
        #expect(form.message != nil)
        #expect(!form.isWorking)
    }

    @Test func confirmWaitsForAWellFormedCodeAndAnAcceptablePassword() {
        let form = PasswordResetForm(session: .inMemory(Self.offline), email: "minsu@example.com")
        form.apply(.invalidInput(["new_password": [FieldError(code: .tooCommon, message: "")]]))
        #expect(form.errors(for: .newPassword) == [Messages.field(.tooCommon, field: "password", .en)])
        form.newPassword = "a new long passphrase"
        #expect(form.errors(for: .newPassword).isEmpty, "editing clears the server's error")
        #expect(!form.canConfirm, "no code was asked for yet")
    }

    @Test func aRejectedCodeLandsOnTheCodeField() {
        let form = PasswordResetForm(session: .inMemory(Self.offline), email: "minsu@example.com")
        form.apply(.codeRejected(.codeExpired))
        #expect(form.errors(for: .code).first == Messages.detail(.codeExpired, .en))
        #expect(form.message == nil)
        form.code = "1"
        #expect(form.errors(for: .code).first == nil)
    }

    @Test func theMailedCodeSetsANewPassword() async throws {
        // One message a minute per address by default; the reset mail follows the sign-up's at once.
        try await withModelServer(["--allow-unverified-login", "--mail-interval", "0"]) { server, client in
            let signUp = SignUpForm(session: .inMemory(client))
            signUp.username = "민수"
            signUp.email = "minsu@example.com"
            signUp.password = "correct horse battery"
            signUp.passwordConfirmation = "correct horse battery"
            signUp.mbti = .enfp
            await signUp.submit()
            #expect(signUp.phase == .codeSent(email: "minsu@example.com", expiresIn: 600))
            _ = try await server.mail.code(to: "minsu@example.com")  // the sign-up mail comes first

            let session = SessionManager.inMemory(client)
            var events = await session.events().makeAsyncIterator()
            let form = PasswordResetForm(session: session, email: "minsu@example.com")
            await form.requestCode()
            #expect(form.phase == .codeSent)
            // The reset mail is the second one to this address.
            let code = try await server.mail.code(to: "minsu@example.com", skipping: 1)
            #expect(server.mail.messages(to: "minsu@example.com").count == 2)
            form.code = code
            form.newPassword = "a brand new passphrase"
            #expect(form.canConfirm)
            await form.confirm()
            #expect(form.phase == .done, "\(form.message ?? "") \(form.errors(for: .code).first ?? "")")
            #expect(await events.next() == .passwordReset, "the app hears of the reset the screen completed")

            let pair = try await client.logIn(.identifier("minsu@example.com", password: "a brand new passphrase"))
            #expect(pair.user.username == "민수")
        }
    }
}

/// When the reset screen moves on from the code, and what a screen reader announces.
@MainActor @Suite struct CodeCompletionAndAnnouncementTests {
    @Test func theResetCodeIsCompleteAtItsSixthDigit() {
        let form = PasswordResetForm(session: .inMemory(AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)))
        form.code = "12345"
        #expect(!form.isCodeComplete)
        form.code = "123456"
        #expect(form.isCodeComplete)
        var rules = FormRules()
        rules.codeLength = 8
        form.use(rules)
        #expect(!form.isCodeComplete, "the server's code length counts")
    }

    @Test func onlyANewMessageIsAnnounced() {
        #expect(Announcement.new(in: ["Enter a nickname."], before: []) == "Enter a nickname.")
        #expect(Announcement.new(in: ["Enter a nickname."], before: ["Enter a nickname."]) == nil, "read once")
        #expect(Announcement.new(in: ["a", "b"], before: ["a"]) == "b")
        #expect(Announcement.new(in: [], before: ["a"]) == nil)
        #expect(Announcement.new("Cannot reach the server.", before: nil) == "Cannot reach the server.")
        #expect(Announcement.new("x", before: "x") == nil)
        #expect(Announcement.new(nil, before: "x") == nil)
    }
}
