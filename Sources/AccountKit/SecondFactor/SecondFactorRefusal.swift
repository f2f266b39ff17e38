import AccountAPI

/// A field of a step-up proof (``StepUpForm``) and of the signed-in second-factor forms
/// (``TOTPEnrollmentFlow``, ``RecoveryCodesFlow``, ``SecondFactorDisableForm``; each uses those it
/// shows).
public enum SecondFactorField: String, FormField {
    /// The account's password.
    case password
    /// The authenticator app's 6-digit code.
    case code
    /// A recovery code, instead of the code.
    case recoveryCode

    /// The field's name on the wire.
    public var wireName: String { self == .recoveryCode ? "recovery_code" : rawValue }
}

/// Where a refusal of a step-up proof (or of an enrolment's code) shows: under the password,
/// under the code, or for the whole form. ``StepUpForm``'s, and the enrolment's code step.
struct SecondFactorRefusal: Sendable, Equatable {
    var password: String?
    var code: String?
    var message: String?
    /// The session ended: the screen gives way to sign-in.
    var endsSession = false

    /// Nothing refused.
    init() {}

    /// The messages under `field`, the factor's under the field of `method` only.
    func errors(for field: SecondFactorField, method: SecondFactorEntry.Method) -> [String] {
        let text = switch field {
        case .password: password
        case .code: method == .authenticatorCode ? code : nil
        case .recoveryCode: method == .recoveryCode ? code : nil
        }
        return text.map { [$0] } ?? []
    }

    /// `error` placed for a form whose factor is `entry`, in `language`; the errors of the
    /// owner's own fields (wire names in `ownFields`) are left to it.
    init(_ error: AccountError, entry: SecondFactorEntry, _ language: Language, ownFields: Set<String> = []) {
        let missing = error.missingProof
        if missing.contains(.password) { password = SecondFactorTexts.enterPassword(language) }
        if missing.contains(.secondFactor) { code = entry.requirement(language) }
        // A passkey or Apple asked for has no field: the form says so.
        if !missing.isDisjoint(with: [.passkey, .apple]) { message = StepUpTexts.missing(missing)(language) }
        switch error {
        case .invalidCredentials:
            password = SecondFactorTexts.wrongPassword(language)
        case .codeRejected(.codeInvalid):
            code = entry.wrongMessage(language)
        case .proofRequired:
            break
        case .invalidInput(let fields):
            if let first = fields["password"]?.first ?? fields["current_password"]?.first, first.code != .required {
                password = first.message
            }
            if fields["code"] != nil || fields["recovery_code"] != nil { code = entry.requirement(language) }
            let theirs = fields.keys.contains { ownFields.contains($0) }
            if password == nil && code == nil && message == nil && !theirs { message = error.localizedDescription(in: language) }
        default:
            message = error.localizedDescription(in: language)
            endsSession = error.endsSession
        }
    }
}

extension AccountError {
    /// `error` as the SDK reports it: an ``AccountError`` as it is, anything else (a store's
    /// failure) as ``storage(_:)``.
    init(wrapping error: any Error) {
        self = error as? AccountError ?? .storage(SessionManager.storageError(error))
    }
}
