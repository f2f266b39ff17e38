import AccountAPI

// The models' values that hold an address or a token print and dump without them (see
// `Redaction` in AccountAPI); the rest print as Swift prints them.

extension EmailVerificationFlow.Phase: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The phase, without a verification token.
    public var description: String {
        switch self {
        case .enterEmail: "enterEmail"
        case .codeSent(let expiresAt): "codeSent(expiresAt: \(expiresAt))"
        case .verified: "verified(token: <redacted>)"
        case .signedIn(let user): "signedIn(\(user))"
        case .signUpSuperseded: "signUpSuperseded"
        }
    }
    /// The phase, without a verification token.
    public var debugDescription: String { description }
    /// The phase, without a verification token, for `dump` and debuggers.
    public var customMirror: Mirror {
        switch self {
        case .enterEmail: Mirror(self, children: [:], displayStyle: .enum)
        case .codeSent(let expiresAt): Mirror(self, children: ["codeSent": expiresAt], displayStyle: .enum)
        case .verified: Mirror(self, children: ["verified": Redaction.hidden], displayStyle: .enum)
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .signUpSuperseded: Mirror(self, children: [:], displayStyle: .enum)
        }
    }
}

extension SignUpForm.Phase: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The phase, without the address.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .submitting: "submitting"
        case .codeSent(_, let expiresIn): "codeSent(email: <redacted>, expiresIn: \(expiresIn))"
        case .signedIn(let user): "signedIn(\(user))"
        case .failed(let error): "failed(\(String(reflecting: error)))"
        }
    }
    /// The phase, without the address.
    public var debugDescription: String { description }
    /// The phase, without the address, for `dump` and debuggers.
    public var customMirror: Mirror {
        switch self {
        case .idle, .submitting: Mirror(self, children: [:], displayStyle: .enum)
        case .codeSent(_, let expiresIn):
            Mirror(self, children: ["email": Redaction.hidden, "expiresIn": expiresIn], displayStyle: .enum)
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .failed(let error): Mirror(self, children: ["failed": error], displayStyle: .enum)
        }
    }
}

extension AccountRoute: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The route, without addresses and tokens.
    public var description: String {
        switch self {
        case .signUp: "signUp"
        case .verifiedSignUp: "verifiedSignUp(email: <redacted>, token: <redacted>)"
        case .emailCode(_, let purpose, let expiresIn):
            "emailCode(email: <redacted>, purpose: \(purpose.rawValue), codeExpiresIn: \(expiresIn.map(String.init) ?? "nil"))"
        case .passwordReset: "passwordReset(email: <redacted>)"
        }
    }
    /// The route, without addresses and tokens.
    public var debugDescription: String { description }
    /// The route, without addresses and tokens, for `dump` and debuggers.
    public var customMirror: Mirror {
        switch self {
        case .signUp: Mirror(self, children: [:], displayStyle: .enum)
        case .verifiedSignUp: Mirror(self, children: ["email": Redaction.hidden, "token": Redaction.hidden], displayStyle: .enum)
        case .emailCode(_, let purpose, let expiresIn):
            Mirror(self, children: ["email": Redaction.hidden, "purpose": purpose, "codeExpiresIn": expiresIn as Any], displayStyle: .enum)
        case .passwordReset: Mirror(self, children: ["email": Redaction.hidden], displayStyle: .enum)
        }
    }
}

extension TOTPEnrollmentFlow.Step: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The step, without the secret and the recovery codes.
    public var description: String {
        switch self {
        case .proof: "proof"
        case .scan: "scan(<redacted>)"
        case .recoveryCodes(let codes): "recoveryCodes(<\(codes.count) redacted>)"
        case .done: "done"
        }
    }
    /// The step, without the secret and the recovery codes.
    public var debugDescription: String { description }
    /// The step, without the secret and the recovery codes, for `dump` and debuggers.
    public var customMirror: Mirror {
        switch self {
        case .proof, .done: Mirror(self, children: [:], displayStyle: .enum)
        case .scan: Mirror(self, children: ["scan": Redaction.hidden], displayStyle: .enum)
        case .recoveryCodes(let codes): Mirror(self, children: ["recoveryCodes": "<\(codes.count) redacted>"], displayStyle: .enum)
        }
    }
}

extension RecoveryCodesFlow.Step: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The step, without the recovery codes.
    public var description: String {
        switch self {
        case .confirm: "confirm"
        case .codes(let codes): "codes(<\(codes.count) redacted>)"
        case .done: "done"
        }
    }
    /// The step, without the recovery codes.
    public var debugDescription: String { description }
    /// The step, without the recovery codes, for `dump` and debuggers.
    public var customMirror: Mirror {
        switch self {
        case .confirm, .done: Mirror(self, children: [:], displayStyle: .enum)
        case .codes(let codes): Mirror(self, children: ["codes": "<\(codes.count) redacted>"], displayStyle: .enum)
        }
    }
}
