import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything a call to the account API can end in besides success. Closed, so apps can `switch`.
///
/// Server problem codes map onto cases; a code this version does not know lands in ``refused(_:)``
/// with the whole ``Problem``, so a newer server never breaks an older app:
///
/// | problem `code` | case |
/// |---|---|
/// | `validation_failed` | ``invalidInput(_:)`` (``conflict(_:)`` with ``ErrorCode/emailTaken`` when its only error is `email` `taken`; from a change that needs a step-up, ``proofRequired(_:)`` when its only errors are the proof's members `required`) |
/// | `invalid_credentials` (401 at login, 403 behind a valid token) | ``invalidCredentials`` |
/// | `email_not_verified` | ``emailNotVerified`` |
/// | `username_taken`, `signup_superseded`, `mfa_already_enabled`, `mfa_not_enabled`, `apple_already_linked`, `last_sign_in_method` | ``conflict(_:)`` |
/// | `mfa_required` (with its `mfa_token`) | ``secondFactorRequired(_:)`` |
/// | `code_invalid`, `code_expired`, `too_many_attempts` | ``codeRejected(_:)`` (from `POST /auth/mfa/verify`, `code_expired` and `too_many_attempts` are ``secondFactorChallengeEnded(_:)``) |
/// | `rate_limited` | ``rateLimited(retryAfter:)`` |
/// | `token_expired` | ``sessionExpired`` |
/// | `session_revoked`, `refresh_token_reused` | ``sessionRevoked(_:)`` with that code |
/// | `token_invalid` | ``sessionRevoked(_:)`` with ``ErrorCode/tokenInvalid`` |
/// | anything else, 5xx | ``server(status:problem:)`` |
/// | anything else | ``refused(_:)`` |
///
/// `token_invalid` counts as a revoked session: the server says it for a token it cannot check
/// or does not know, which, for a token the SDK stored itself, means its session or account is
/// gone (deleted elsewhere, a database reset, a rotated-away key). ``SessionManager`` first
/// refreshes once for an access token the server calls invalid (a key rotated under it), and
/// signs out when the refresh is refused too.
///
/// ``localizedDescription(in:)`` words every case for people; `localizedDescription` does it in the
/// language of the client that last made a request.
public enum AccountError: Error, Sendable, Hashable {
    /// `validation_failed`: per-field errors with the server's messages, keyed by wire field name;
    /// a model's `errors(for:)` shows them on its own fields (see ``fieldErrors(as:)``).
    case invalidInput([String: [FieldError]])
    /// A change of how the account signs in (``SensitiveChange``) was sent without a part of the
    /// proof the server asks of this account (its `422` naming only the proof's members as
    /// `required`): a passkey (the account holds one and no second factor), the password, Apple,
    /// or the second factor (turned on elsewhere, say). Ask for it (``StepUpRequirement/learn(_:)``)
    /// and send again.
    case proofRequired(MissingProof)
    /// Wrong identifier or password; from a password change or account deletion, a wrong current
    /// password (the server's `403`): the session is fine and stays.
    case invalidCredentials
    /// The password was right but the email address is not verified yet.
    case emailNotVerified
    /// Something is already taken: ``ErrorCode/usernameTaken``, or ``ErrorCode/emailTaken`` (an
    /// email-first sign-up whose address got an account meanwhile); or the address's sign-up is
    /// another's now: ``ErrorCode/signUpSuperseded`` (a newer sign-up replaced this device's); or
    /// the second factor is not in the state the call needs: ``ErrorCode/mfaAlreadyEnabled``
    /// (enrolling while it is on), ``ErrorCode/mfaNotEnabled`` (confirming without an enrolment,
    /// new recovery codes or turning it off while it is off); or Apple: ``ErrorCode/appleAlreadyLinked``
    /// (the Apple ID is another account's), ``ErrorCode/lastSignInMethod`` (unlinking would leave
    /// no way to log in).
    case conflict(ErrorCode)
    /// The password was right and the account has a second factor: the login waits for a code
    /// from the authenticator app or a recovery code (``SessionManager/verifySecondFactor(code:)``;
    /// ``SessionManager`` keeps the challenge and its state is
    /// ``SessionManager/State/awaitingSecondFactor(_:)``).
    case secondFactorRequired(SecondFactorChallenge)
    /// The login's second-factor step is over, so log in again with the password:
    /// ``ErrorCode/codeExpired`` (its 5 minutes passed), ``ErrorCode/tooManyAttempts`` (5 wrong
    /// codes spent it) or ``ErrorCode/codeInvalid`` (none is waiting: answered already, cancelled,
    /// or never started).
    case secondFactorChallengeEnded(ErrorCode)
    /// A one-time code or verification token was refused: `code_invalid`, `code_expired` or
    /// `too_many_attempts`.
    case codeRejected(ErrorCode)
    /// Too many requests; try again after the delay (seconds) when the server gave one.
    case rateLimited(retryAfter: Int?)
    /// The session ended by time; sign in again.
    case sessionExpired
    /// The session was logged out or revoked elsewhere (`session_revoked`), ended because its
    /// refresh token was used twice (`refresh_token_reused`), or is unknown to the server
    /// (`token_invalid`: see above).
    case sessionRevoked(ErrorCode)
    /// No session is stored: sign in first.
    case notSignedIn
    /// Any other refusal the server explained (`invalid_request`, `not_found`, unknown codes).
    case refused(Problem)
    /// The server failed (5xx), with its problem body when it sent one.
    case server(status: Int, problem: Problem?)
    /// The reply could not be read as the API promises.
    case undecodableReply(status: Int)
    /// The request did not reach the server or its reply was lost.
    case transport(URLError)
    /// The credential store failed (for example, a locked Keychain); not the same as signed out.
    case storage(CredentialStoreError)

    /// Maps a problem reply to a case (see the table above).
    public init(status: Int, problem: Problem?, retryAfter: Int?) {
        guard let problem else {
            self = status >= 500 ? .server(status: status, problem: nil) : .undecodableReply(status: status)
            return
        }
        switch problem.code {
        case .validationFailed:
            let fields = problem.errors ?? [:]
            if fields.count == 1, fields["email"]?.contains(where: { $0.code == .taken }) == true {
                self = .conflict(.emailTaken)
            } else {
                self = .invalidInput(fields)
            }
        // 401 at login; 403 for a wrong password behind a valid token (password change, account
        // deletion), which must not end the session.
        case .invalidCredentials: self = .invalidCredentials
        case .emailNotVerified: self = .emailNotVerified
        case .usernameTaken, .signUpSuperseded, .mfaAlreadyEnabled, .mfaNotEnabled, .appleAlreadyLinked, .lastSignInMethod:
            self = .conflict(problem.code)
        case .mfaRequired where problem.mfaToken != nil:
            self = .secondFactorRequired(SecondFactorChallenge(mfaToken: problem.mfaToken ?? "", methods: problem.methods ?? [.totp]))
        case .codeInvalid, .codeExpired, .tooManyAttempts: self = .codeRejected(problem.code)
        case .rateLimited: self = .rateLimited(retryAfter: retryAfter)
        case .tokenExpired: self = .sessionExpired
        case .sessionRevoked, .refreshTokenReused: self = .sessionRevoked(problem.code)
        case .tokenInvalid: self = .sessionRevoked(.tokenInvalid)
        default:
            self = status >= 500 ? .server(status: status, problem: problem) : .refused(problem)
        }
    }

    /// Whether the stored session is gone for good, so the app should show sign-in.
    public var endsSession: Bool {
        switch self {
        case .sessionExpired, .sessionRevoked, .notSignedIn: true
        default: false
        }
    }

    /// The server's field errors, if any, by wire field name.
    public var fieldErrors: [String: [FieldError]] {
        if case .invalidInput(let fields) = self { return fields }
        return [:]
    }

    /// What a refused change of how the account signs in lacked of its proof: the value of
    /// ``proofRequired(_:)``, or the proof's members `required` among ``invalidInput(_:)``'s errors
    /// (beside a field of the change's own); empty for any other error.
    public var missingProof: MissingProof {
        switch self {
        case .proofRequired(let missing): missing
        case .invalidInput(let fields): MissingProof(fields: fields)
        default: []
        }
    }

    /// Whether a change that needs the second factor (password change, account deletion) was
    /// refused for want of one: the account has a second factor now (turned on elsewhere, say), so
    /// ask for its code and send again.
    public var needsSecondFactor: Bool { missingProof.contains(.secondFactor) }

    /// This error as a change of how the account signs in reports it: a `422` whose only errors
    /// are the proof's members `required` becomes ``proofRequired(_:)``.
    var asStepUpRefusal: AccountError {
        guard case .invalidInput(let fields) = self, !fields.isEmpty,
              fields.allSatisfy({ MissingProof.wireFields[$0.key] != nil && $0.value.allSatisfy { $0.code == .required } })
        else { return self }
        return .proofRequired(MissingProof(fields: fields))
    }

    /// The server's field errors on the fields of a form, keyed by its field type; errors on a
    /// wire field the form does not have are left out (its ``localizedDescription(in:)`` covers them).
    ///
    /// ```swift
    /// error.fieldErrors(as: SignUpField.self)[.passwordConfirmation]   // [FieldError(code: .mismatch, …)]
    /// ```
    public func fieldErrors<Field: FormField>(as type: Field.Type) -> [Field: [FieldError]] {
        var result: [Field: [FieldError]] = [:]
        for (name, errors) in fieldErrors {
            guard let field = Field(wireName: name) else { continue }
            result[field, default: []] += errors
        }
        return result
    }

    /// Hashes what `==` compares; a transport error by its code (Foundation on Linux cannot hash a `URLError`).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .invalidInput(let fields): hasher.combine(0); hasher.combine(fields)
        case .invalidCredentials: hasher.combine(1)
        case .emailNotVerified: hasher.combine(2)
        case .conflict(let code): hasher.combine(3); hasher.combine(code)
        case .codeRejected(let code): hasher.combine(4); hasher.combine(code)
        case .rateLimited(let retryAfter): hasher.combine(5); hasher.combine(retryAfter)
        case .sessionExpired: hasher.combine(6)
        case .sessionRevoked(let code): hasher.combine(7); hasher.combine(code)
        case .notSignedIn: hasher.combine(8)
        case .refused(let problem): hasher.combine(9); hasher.combine(problem)
        case .server(let status, let problem): hasher.combine(10); hasher.combine(status); hasher.combine(problem)
        case .undecodableReply(let status): hasher.combine(11); hasher.combine(status)
        case .transport(let error): hasher.combine(12); hasher.combine(error.code.rawValue)
        case .storage(let error): hasher.combine(13); hasher.combine(error)
        case .secondFactorRequired(let challenge): hasher.combine(14); hasher.combine(challenge)
        case .secondFactorChallengeEnded(let code): hasher.combine(15); hasher.combine(code)
        case .proofRequired(let missing): hasher.combine(16); hasher.combine(missing)
        }
    }
}
