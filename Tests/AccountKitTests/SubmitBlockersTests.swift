import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// A form that is not ready yet still takes the press of its button, and says what is missing:
/// the sign-up details and the last step of Sign in with Apple.
@MainActor @Suite struct SubmitBlockersTests {
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    @Test func anMBTITypeNeverChosenIsNamedUnderTheButtonAfterAPress() async {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.useVerifiedEmail("jiwoo@example.com", token: "proof")
        fillDetailsButMBTI(form)
        #expect(form.canPressSubmit, "the button can be pressed before every field is right")
        #expect(!form.canSubmit)
        #expect(form.submitBlockers.isEmpty, "nothing is named before a press")
        #expect(form.errors(for: .mbti).isEmpty, "the picker was never opened")

        await form.submit()

        #expect(form.phase == .idle, "nothing was sent")
        #expect(form.submitBlockers == ["Choose your MBTI type."])
        #expect(form.errors(for: .mbti) == ["Choose your MBTI type."])

        form.mbti = .infj
        #expect(form.submitBlockers.isEmpty, "a right form holds nothing back")
        #expect(form.canSubmit)
    }

    @Test func everyFieldHoldingTheFormBackIsNamedInTheFormsOrder() async {
        let form = SignUpForm(session: .inMemory(AccountClient(baseURL: Self.offline.baseURL, language: .ko)))
        await form.submit()
        #expect(form.submitBlockers == [
            "닉네임을 입력해 주세요.", "이메일 주소를 입력해 주세요.", "비밀번호를 입력해 주세요.",
            "비밀번호를 한 번 더 입력해 주세요.", "MBTI 유형을 선택해 주세요.",
        ])
    }

    @Test func theButtonIsOffOnlyWhileARequestIsOnItsWayOrTheFormIsDone() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.apply(.conflict(.usernameTaken))
        #expect(form.canPressSubmit, "a refusal is answered by editing and pressing again")
        let sent = SignUpForm(session: .inMemory(Self.offline))
        sent.apply(.transport(URLError(.notConnectedToInternet)))
        #expect(sent.canPressSubmit)
    }

    @Test func appleSignUpNamesTheMissingTypeAfterAPress() async {
        let form = AppleSignUpForm(session: .inMemory(Self.offline), signUp: Self.appleSignUp)
        form.username = "사과민수"
        #expect(form.canPressSubmit)
        #expect(form.submitBlockers.isEmpty)
        await form.submit()
        #expect(form.phase == .idle)
        #expect(form.submitBlockers == ["Choose your MBTI type."])
        form.mbti = .enfp
        #expect(form.submitBlockers.isEmpty)
    }

    @Test func anExpiredAppleSignUpCannotBePressedAgain() async {
        let signUp = AppleSignUp(continuationToken: "t", email: "x@privaterelay.appleid.com", receivedAt: Date(timeIntervalSinceNow: -700), expiresIn: 600)
        let form = AppleSignUpForm(session: .inMemory(Self.offline), signUp: signUp)
        form.username = "사과민수"
        form.mbti = .enfp
        await form.submit()
        #expect(form.phase == .expired)
        #expect(!form.canPressSubmit)
        #expect(form.submitBlockers.isEmpty, "the message says what to do, not the fields")
    }

    static let appleSignUp = AppleSignUp(continuationToken: "t", email: "x@privaterelay.appleid.com", receivedAt: Date(), expiresIn: 600)

    func fillDetailsButMBTI(_ form: SignUpForm) {
        form.username = "지우"
        form.password = "correct horse battery"
        form.passwordConfirmation = "correct horse battery"
    }
}
