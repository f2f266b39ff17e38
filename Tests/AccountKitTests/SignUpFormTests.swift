import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// The sign-up form's decisions without a server: errors as the user types, which fields show
/// them, when the button is enabled, and where a server's refusal lands.
@MainActor @Suite struct SignUpFormTests {
    /// Nothing listens on port 9; these tests never send.
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    func filledForm(language: Language = .en) -> SignUpForm {
        let form = SignUpForm(session: .inMemory(AccountClient(baseURL: Self.offline.baseURL, language: language)))
        form.username = "민수"
        form.email = "minsu@example.com"
        form.password = "correct horse battery"
        form.passwordConfirmation = "correct horse battery"
        form.mbti = .enfp
        return form
    }

    @Test func untouchedFieldsShowNoErrorsUntilASubmitAttempt() async {
        let form = SignUpForm(session: .inMemory(Self.offline))
        for field in SignUpField.allCases { #expect(form.errors(for: field).isEmpty) }
        #expect(!form.canSubmit)
        #expect(!form.hasInput)

        await form.submit()

        #expect(form.submitAttempted)
        #expect(form.phase == .idle)
        #expect(form.errors(for: .username) == ["Enter a nickname."])
        #expect(form.errors(for: .email) == ["Enter your email address."])
        #expect(form.errors(for: .password) == ["Enter a password."])
        #expect(form.errors(for: .passwordConfirmation) == ["Enter the password again."])
        #expect(form.errors(for: .mbti) == ["Choose your MBTI type."])
    }

    @Test func onlyEditedFieldsShowErrorsAsYouType() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.username = "a"
        #expect(form.touched == [.username])
        #expect(form.errors(for: .username) == ["Use at least 2 characters."])
        #expect(form.errors(for: .email).isEmpty)
        #expect(form.errors(for: .password).isEmpty)

        form.username = "ab"
        #expect(form.errors(for: .username).isEmpty)

        form.email = "not-an-address"
        #expect(form.errors(for: .email) == ["Enter a valid email address."])
        form.email = ""
        #expect(form.errors(for: .email) == ["Enter your email address."], "a cleared field stays touched")
        #expect(form.hasInput)
    }

    @Test func passwordErrorsFollowTheSharedRules() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.username = "minsu"
        form.password = "short"
        #expect(form.ruleErrors(.password) == [.tooShort])
        form.password = "password"
        #expect(form.ruleErrors(.password) == [.tooCommon])
        form.password = "i-am-minsu-really"
        #expect(form.ruleErrors(.password) == [.tooSimilar])
        #expect(form.errors(for: .password) == ["The password must not contain your nickname or email address."])

        form.passwordConfirmation = "something else"
        #expect(form.errors(for: .passwordConfirmation) == ["The passwords do not match."])
        form.passwordConfirmation = "i-am-minsu-really"
        #expect(form.errors(for: .passwordConfirmation).isEmpty)
    }

    @Test func messagesAreInTheClientsLanguage() {
        let form = SignUpForm(session: .inMemory(AccountClient(baseURL: Self.offline.baseURL, language: .ko)))
        form.username = "a"
        #expect(form.errors(for: .username) == ["닉네임은 2자 이상이어야 해요."])
    }

    @Test func canSubmitOnlyWhenEveryFieldIsValid() {
        let form = filledForm()
        #expect(form.canSubmit)
        #expect(SignUpField.allCases.allSatisfy { form.errors(for: $0).isEmpty })

        form.mbti = nil
        #expect(!form.canSubmit)
        form.mbti = .intj
        form.passwordConfirmation = "correct horse batter"
        #expect(!form.canSubmit)
        form.passwordConfirmation = "correct horse battery"
        form.username = "12345"
        #expect(!form.canSubmit, "all digits is not a nickname")
        form.username = "admin"
        #expect(form.errors(for: .username) == ["This nickname is already taken."], "reserved names are taken locally")
    }

    @Test func pickerOffersTheSixteenTypesUntilAPolicySaysOtherwise() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        #expect(form.mbtiChoices == MBTI.allCases)
        var rules = FormRules()
        rules.mbtiTypes = [.enfp, .intj]
        form.use(rules)
        #expect(form.mbtiChoices == [.enfp, .intj])
        form.mbti = .istj
        #expect(form.ruleErrors(.mbti) == [.invalidChoice])
    }

    @Test func serverFieldErrorsLandOnTheirFieldsUntilEdited() {
        let form = filledForm()
        let error = AccountError.invalidInput([
            "email": [FieldError(code: .invalidFormat, message: "Enter a valid email address.")],
            "password_confirmation": [FieldError(code: .mismatch, message: "The passwords do not match.")],
        ])
        form.apply(error)

        #expect(form.phase == .failed(error))
        #expect(form.errors(for: .email) == ["Enter a valid email address."])
        #expect(form.errors(for: .passwordConfirmation) == ["The passwords do not match."])
        #expect(form.errors(for: .username).isEmpty)
        #expect(form.message == nil, "every error has a field")
        #expect(!form.canSubmit, "the server's errors are not answered yet")

        form.email = "minsu2@example.com"
        #expect(form.errors(for: .email).isEmpty)
        #expect(form.phase == .idle)
        #expect(!form.canSubmit)
        form.password = "correct horse battery"
        #expect(form.errors(for: .passwordConfirmation).isEmpty, "a changed password clears the confirmation's server error")
        #expect(form.canSubmit)
    }

    @Test func serverErrorsShowOnUntouchedFieldsToo() {
        let form = SignUpForm(session: .inMemory(Self.offline))
        form.apply(.invalidInput(["mbti": [FieldError(code: .invalidChoice, message: "Choose one of the 16 MBTI types.")]]))
        #expect(form.errors(for: .mbti) == ["Choose one of the 16 MBTI types."])
    }

    @Test func takenUsernameShowsOnTheUsernameField() {
        let form = filledForm()
        form.apply(.conflict(.usernameTaken))
        #expect(form.errors(for: .username) == ["This nickname is already taken."])
        #expect(form.errors(for: .email).isEmpty)
        #expect(form.message == nil)
        #expect(!form.canSubmit)
        form.username = "민수2"
        #expect(form.canSubmit)
    }

    @Test func takenEmailShowsOnTheEmailField() {
        let form = filledForm()
        form.apply(.conflict(ErrorCode("email_taken")))
        #expect(form.errors(for: .email) == ["This is already taken."])
    }

    @Test func refusalsWithoutAFieldShowOnTheForm() {
        let form = filledForm()
        form.apply(.transport(URLError(.cannotConnectToHost)))
        #expect(form.message == "Cannot reach the server. Check your connection.")
        #expect(SignUpField.allCases.allSatisfy { form.errors(for: $0).isEmpty })
        #expect(form.canSubmit, "trying again is allowed")

        form.apply(.invalidInput(["email_verification_token": [FieldError(code: .invalidFormat, message: "Bad token.")]]))
        #expect(form.message == "Bad token.", "a field the form does not show explains the whole form")
    }
}

/// The details screen of the email-first flow: the proven address fixed, the rest as usual.
@MainActor @Suite struct VerifiedSignUpFormTests {
    @Test func theProvenAddressIsFixedAndSkippedByTheReturnKey() {
        let form = SignUpForm(session: .inMemory(SignUpFormTests.offline))
        #expect(form.textFields == [.username, .email, .password, .passwordConfirmation])
        #expect(form.field(after: .username) == .email)
        form.useVerifiedEmail("minsu@example.com", token: "tok")
        #expect(form.textFields == [.username, .password, .passwordConfirmation])
        #expect(form.field(after: .username) == .password)
        #expect(form.field(after: .password) == .passwordConfirmation)
        #expect(form.field(after: .passwordConfirmation) == nil, "the last field closes the keyboard")
        #expect(form.emailVerificationToken == "tok")
        #expect(!form.hasInput && !form.touched.contains(.email))

        form.email = "other@example.com"
        #expect(form.email == "minsu@example.com", "the token proves this address only")
        #expect(form.errors(for: .email).isEmpty)
    }

    @Test func theMBTIPickerStartsWithNothingChosen() {
        let form = SignUpForm(session: .inMemory(SignUpFormTests.offline))
        #expect(form.mbti == nil)
        #expect(form.errors(for: .mbti).isEmpty, "no error before the user has done anything")
        form.useVerifiedEmail("minsu@example.com", token: "tok")
        #expect(form.mbti == nil)
    }

    @Test func aRefusedProofIsNotBlamedOnTheFields() {
        let form = SignUpForm(session: .inMemory(AccountClient(baseURL: SignUpFormTests.offline.baseURL, language: .ko)))
        form.useVerifiedEmail("minsu@example.com", token: "tok")
        form.apply(.codeRejected(.codeInvalid))
        #expect(form.needsNewVerification)
        #expect(form.message == "이메일 인증이 만료되었어요. 처음부터 다시 인증해 주세요.")
        let detailsFirst = SignUpForm(session: .inMemory(SignUpFormTests.offline))
        detailsFirst.apply(.codeRejected(.codeInvalid))
        #expect(!detailsFirst.needsNewVerification)
    }

    @Test func theEmailFirstFlowRunsOnThePreviewClient() async {
        let session = SessionManager.preview()
        let flow = EmailVerificationFlow(session: .inMemory(session.client), purpose: .signup)
        flow.email = "jiwoo@example.com"
        await flow.performPrimaryAction()
        flow.code = "000000"
        await flow.verifyIfComplete()
        let form = SignUpForm(session: session)
        form.useVerifiedEmail(flow.email, token: flow.token ?? "")
        form.username = "지우"
        form.password = "correct horse battery"
        form.passwordConfirmation = "correct horse battery"
        form.mbti = .istp
        await form.submit()
        guard case .signedIn(let user) = form.phase else {
            Issue.record("preview sign-up: \(form.phase)")
            return
        }
        #expect(user.username == "지우" && user.email == "jiwoo@example.com" && user.mbti == .istp)
    }
}
