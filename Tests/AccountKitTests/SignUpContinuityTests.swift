import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// Nothing typed is dropped without a word: leaving the address step asks when something would be
/// lost, proving the address again keeps the details, and a login that sent the person to verify
/// the address says it worked when they come back.
@MainActor @Suite struct SignUpContinuityTests {
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    @Test func leavingTheAddressStepAsksOnlyWhenSomethingWouldBeLost() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), purpose: .signup)
        #expect(!flow.leavingLosesInput, "nothing typed")
        flow.email = "  "
        #expect(!flow.leavingLosesInput, "only spaces")
        flow.email = "jiwoo@exam"
        #expect(flow.leavingLosesInput, "a typed address")
        flow.email = ""
        flow.codeWasSent(to: "jiwoo@example.com", expiresIn: 600)
        #expect(flow.leavingLosesInput, "a code on its way")
    }

    @Test func aVerifyFlowLeavesWithoutAsking() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), purpose: .verify, email: "jiwoo@example.com")
        #expect(!flow.leavingLosesInput, "the address came from the login; it is asked again")
        flow.codeWasSent(to: "jiwoo@example.com", expiresIn: 600)
        #expect(!flow.leavingLosesInput)
    }

    @Test func theDetailsComeBackAfterTheAddressIsProvenAgain() {
        let first = SignUpForm(session: .inMemory(Self.offline))
        first.useVerifiedEmail("jiwoo@example.com", token: "spent")
        first.username = "지우"
        first.password = "correct horse battery"
        first.passwordConfirmation = "correct horse batter"
        first.mbti = .infp
        let draft = first.draft
        #expect(!draft.isEmpty)
        #expect(draft.touched == [.username, .password, .passwordConfirmation, .mbti], "the address is not the draft's")

        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), purpose: .signup, email: "jiwoo@example.com")
        flow.signUpDraft = draft
        #expect(flow.leavingLosesInput)

        let again = SignUpForm(session: .inMemory(Self.offline))
        again.useVerifiedEmail("jiwoo@example.com", token: "fresh")
        again.restore(draft)
        #expect(again.username == "지우")
        #expect(again.password == "correct horse battery")
        #expect(again.passwordConfirmation == "correct horse batter")
        #expect(again.mbti == .infp)
        #expect(again.emailVerificationToken == "fresh", "the new proof is the one sent")
        #expect(again.email == "jiwoo@example.com")
        #expect(again.errors(for: .passwordConfirmation) == ["The passwords do not match."], "the error shows as it did")
        #expect(again.errors(for: .email).isEmpty)
    }

    @Test func aDraftPrintsWithoutWhatWasTyped() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.username = "지우"
        form.password = "correct horse battery"
        let printed = [String(describing: form.draft), String(reflecting: form.draft), { var s = ""; dump(form.draft, to: &s); return s }()]
        for text in printed {
            #expect(!text.contains("지우") && !text.contains("correct horse"), "\(text)")
        }
    }

    @Test(arguments: [(Language.en, "Your email address is verified. You can log in now."), (.ko, "이메일 주소를 인증했어요. 이제 로그인해 주세요.")])
    func theLoginSaysTheAddressIsVerifiedWhenTheCodeScreenReturns(language: Language, notice: String) async {
        let form = LoginForm(session: .inMemory(AccountClient(baseURL: Self.offline.baseURL, language: language)))
        form.identifier = "jiwoo@example.com"
        form.password = "correct horse battery"
        form.apply(.emailNotVerified)
        #expect(form.needsEmailVerification)
        #expect(form.notice == nil)

        form.emailWasVerified()

        #expect(form.notice == notice)
        #expect(form.message == nil, "the refusal is gone")
        #expect(!form.needsEmailVerification)
        #expect(form.canSubmit)
        await form.submit()
        #expect(form.notice == nil, "the next attempt clears it")
    }
}
