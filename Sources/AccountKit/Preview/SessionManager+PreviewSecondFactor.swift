import AccountAPI

extension SessionManager {
    /// For previews of the login's second step: the login of this (signed-out, in-memory) session
    /// waits for its second factor, as after a right password for an account with one. A
    /// ``LoginForm`` made afterwards starts at the code step, and any code signs in.
    package func awaitPreviewSecondFactor() -> SecondFactorChallenge {
        awaitSecondFactor(SecondFactorChallenge(mfaToken: "preview-mfa-token", methods: [.totp, .recoveryCode]))
    }
}
