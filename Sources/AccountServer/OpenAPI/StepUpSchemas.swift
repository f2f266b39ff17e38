import AccountAPI
import AccountCore

/// The step-up proof (``AccountAPI/StepUpProof``) as every request that changes how an account
/// proves who it is carries it: its members at the top level, beside the request's own.
enum StepUpSchemas {
    /// What the proof must hold, said once for every such request.
    static let description = "Step-up proof (the strongest the account holds): `passkey_assertion` of one of the account's passkeys "
        + "(for a challenge of `POST /auth/passkeys/reauth/options`; both factors in one), or the password (an account without one: "
        + "`apple_identity_token` and `apple_nonce` of its linked Apple ID) with `code` or `recovery_code` while the second factor is on. "
        + "An account that holds a passkey and no authenticator app gives `passkey_assertion`. Checked under the account's login back-off."

    /// What `code` says of itself where the change asks the second factor only while it is on.
    static let codeWhileOn = "While the second factor is on (and no passkey assertion is given): this or `recovery_code`."

    /// The proof's members; the password is `passwordField` (`current_password` for a password change).
    static func members(passwordField: String = "password", factor: String = codeWhileOn) -> [String: JSONValue] {
        [
            passwordField: Schema.string("The account's current password.", minLength: 1),
            "passkey_assertion": Schema.ref("PasskeyAssertionCredential"),
            "apple_identity_token": Schema.string(
                "For an account without a password: an identity token of its linked Apple ID issued in the last 10 minutes, not "
                    + "accepted before; spent with the change.", minLength: 1),
            "apple_nonce": Schema.string("The raw nonce of `apple_identity_token`.", minLength: 1),
            "code": FieldSchemas.authenticatorCode(factor),
            "recovery_code": FieldSchemas.recoveryCode,
        ]
    }

    /// A request of `properties` with the proof beside them.
    static func request(
        _ properties: [String: JSONValue] = [:], required: [String] = [], passwordField: String = "password",
        factor: String = codeWhileOn, without: Set<String> = []
    ) -> JSONValue {
        let proof = members(passwordField: passwordField, factor: factor).filter { !without.contains($0.key) }
        return Schema.object(properties.merging(proof) { own, _ in own }, required: required, description: description)
    }
}
