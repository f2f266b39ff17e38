import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import AccountKit

/// The closed error: its language, its mapping of server codes, field errors by the form's own
/// field type, and values that hash (so phases and states can be `Hashable`).
@Suite struct AccountErrorTests {
    /// A client whose requests never leave the process and always fail to connect.
    static func unreachable(_ language: Language) -> AccountClient {
        AccountClient(baseURL: offlineURL, language: language, transport: { _ in throw URLError(.cannotConnectToHost) })
    }

    @Test(arguments: [Language.ko, .en])
    func localizedDescriptionFollowsTheClientsLanguage(language: Language) async throws {
        // A recorder of this test's own, so clients of other tests cannot speak in between.
        await ClientLanguage.recorder.withValue(ClientLanguage.Recorder()) {
            do {
                _ = try await Self.unreachable(language).policy()
                Issue.record("the transport always fails")
            } catch {
                let expected = AccountError.transport(URLError(.cannotConnectToHost)).localizedDescription(in: language)
                #expect(error.localizedDescription == expected)
                #expect(expected == (language == .ko ? "서버에 연결할 수 없어요. 네트워크를 확인해 주세요." : "Cannot reach the server. Check your connection."))
            }
            #expect(CredentialStoreError.locked.localizedDescription == CredentialStoreError.locked.localizedDescription(in: language))
        }
    }

    @Test func everyServerCodeHasACaseAndTokenInvalidIsARevokedSession() {
        func error(_ code: ErrorCode, _ status: Int, errors: FieldErrors? = nil) -> AccountError {
            AccountError(status: status, problem: .make(code, status: status, language: .en, errors: errors), retryAfter: 7)
        }
        #expect(error(.tokenInvalid, 401) == .sessionRevoked(.tokenInvalid))
        #expect(error(.tokenInvalid, 401).endsSession)
        #expect(error(.refreshTokenReused, 401) == .sessionRevoked(.refreshTokenReused))
        #expect(error(.tokenExpired, 401) == .sessionExpired)
        #expect(error(.usernameTaken, 409) == .conflict(.usernameTaken))
        #expect(error(.rateLimited, 429) == .rateLimited(retryAfter: 7))
        #expect(error(.tooManyAttempts, 429) == .codeRejected(.tooManyAttempts))
        #expect(error(.lengthRequired, 411) == .refused(.make(.lengthRequired, status: 411, language: .en)))
        #expect(error(.internalError, 500) == .server(status: 500, problem: .make(.internalError, status: 500, language: .en)))
        var taken = FieldErrors()
        taken.add(.taken, to: "email")
        #expect(error(.validationFailed, 422, errors: taken) == .conflict(.emailTaken))
        #expect(ErrorCode.emailTaken.rawValue == "email_taken")
    }

    @Test func fieldErrorsLandOnTheFormsOwnFieldType() {
        var fields = FieldErrors()
        fields.add(.mismatch, to: "password_confirmation")
        fields.add(.tooShort, to: "username")
        fields.add(.invalidChoice, to: "purpose")
        let error = AccountError(status: 422, problem: .make(.validationFailed, status: 422, language: .en, errors: fields), retryAfter: nil)
        let signUp = error.fieldErrors(as: SignUpField.self)
        #expect(signUp[.passwordConfirmation]?.map(\.code) == [.mismatch])
        #expect(signUp[.username]?.map(\.code) == [.tooShort])
        #expect(signUp.count == 2, "`purpose` is no field of the sign-up form")
        #expect(error.fieldErrors(as: EmailVerificationFlow.Field.self).isEmpty)
        #expect(error.fieldErrors(as: LoginForm.Field.self).isEmpty)
    }

    @Test func errorsStatesAndPhasesHash() {
        let errors: Set<AccountError> = [
            .transport(URLError(.timedOut)), .transport(URLError(.timedOut)), .storage(.locked), .conflict(.emailTaken),
            .invalidInput(["email": [FieldError(code: .taken, message: "x")]]),
        ]
        #expect(errors.count == 4)
        let phases: Set<SignUpForm.Phase> = [.idle, .failed(.transport(URLError(.timedOut))), .codeSent(email: "a@b.co", expiresIn: 600)]
        #expect(phases.count == 3)
        let states: Set<SessionManager.State> = [.unknown, .signedOut, .signedIn(SessionManager.previewUser)]
        #expect(states.count == 3)
        let infos: Set<SessionInfo> = [SessionInfo(id: UUID(), createdAt: Date(), lastUsedAt: Date(), userAgent: nil, current: true)]
        #expect(infos.count == 1)
    }
}
