import AccountAPI
import AccountStore
import Foundation

/// What a sensitive change (account deletion, second-factor changes, passkey removal) asks of the
/// signed-in caller: the password; or an assertion of one of the account's passkeys
/// (`passkey_assertion`, for a challenge of `POST /auth/passkeys/reauth/options`), which any
/// account may give instead; or, for an account without a password that has Apple linked, a fresh
/// identity token of that Apple ID (`apple_identity_token` and `apple_nonce`).
enum CallersProof: Sendable {
    case password(String)
    case apple(token: String, nonce: String)
    case passkey(PasskeyAssertionCredential)

    /// The proof a request gives for `user`, or `nil` with the field errors added to `errors`:
    /// `password` `required`; for an account without a password, `apple_identity_token` and
    /// `apple_nonce` `required` when it has Apple linked, else `passkey_assertion` `required`.
    static func parse(
        password: String?, appleIdentityToken: String?, appleNonce: String?, passkeyAssertion: PasskeyAssertionCredential?,
        for user: UserRecord, into errors: inout FieldErrors
    ) -> CallersProof? {
        if let password, !password.isEmpty { return .password(password) }
        if let passkeyAssertion { return .passkey(passkeyAssertion) }
        guard !user.hasPassword else {
            errors.add(.required, to: "password")
            return nil
        }
        let appleGiven = !(appleIdentityToken ?? "").isEmpty || !(appleNonce ?? "").isEmpty
        guard user.appleLinked || appleGiven else {
            errors.add(.required, to: "passkey_assertion")
            return nil
        }
        if (appleIdentityToken ?? "").isEmpty { errors.add(.required, to: "apple_identity_token") }
        if (appleNonce ?? "").isEmpty { errors.add(.required, to: "apple_nonce") }
        guard let appleIdentityToken, let appleNonce, !appleIdentityToken.isEmpty, !appleNonce.isEmpty else { return nil }
        return .apple(token: appleIdentityToken, nonce: appleNonce)
    }
}

/// A caller's proof that passed its check, to be spent in the transaction of the change it
/// allows (``Services/write(spending:_:via:_:)``): an Apple identity token is accepted once.
struct AcceptedProof: Sendable {
    /// The Apple token to record as used; `nil` for a password.
    let appleIdentity: AppleIdentity?
}

extension Services {
    /// Checks the caller's proof: the password under the account's login back-off (a wrong one is
    /// `403 invalid_credentials`), a passkey assertion (``checkPasskeyProof(_:_:via:)``: its
    /// challenge is spent as it is checked), or an Apple identity token issued in the last 10 minutes to the
    /// Apple ID linked to the account (anything else is `403 apple_token_invalid`, logged with the
    /// failed check). An Apple token is spent only by ``write(spending:_:via:_:)``.
    func checkCallersProof(_ proof: CallersProof, _ context: AuthenticatedContext, via route: String) async throws -> AcceptedProof {
        switch proof {
        case .password(let password):
            try await throttle.checkCallersPassword(password, context, via: route)
            return AcceptedProof(appleIdentity: nil)
        case .passkey(let assertion):
            try await checkPasskeyProof(assertion, context, via: route)
            return AcceptedProof(appleIdentity: nil)
        case .apple(let token, let nonce):
            let identity = try await apple.identity(
                token, nonce: nonce, context.base, userID: context.userID, via: route, maximumAge: AppleSignIn.proofMaximumAge, status: 403)
            let userID = context.userID
            guard try await store.read({ try $0.appleIdentity(userID: userID) })?.subject == identity.subject else {
                throw AppleSignIn.refuse(.wrongUser, context.base, userID: userID, via: route, status: 403)
            }
            return AcceptedProof(appleIdentity: identity)
        }
    }

    /// Runs `body`, the sensitive change, in a write transaction that first spends `proof`'s Apple
    /// token, so the change commits with the token's use or not at all; a token accepted before
    /// is `403 apple_token_invalid` (logged `replayed`) and nothing is written. Whatever `body`
    /// then decides (a wrong second-factor code included), the token was accepted and is spent.
    func write<T: Sendable>(
        spending proof: AcceptedProof, _ context: AuthenticatedContext, via route: String,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        guard let identity = proof.appleIdentity else { return try await store.write(body) }
        do {
            return try await store.write { tx in
                guard try AppleSignIn.spend(identity, in: tx) else { throw ReplayedProof() }
                return try body(tx)
            }
        } catch is ReplayedProof {
            throw AppleSignIn.refuse(.replayed, context.base, userID: context.userID, via: route, status: 403)
        }
    }
}

/// Thrown in the transaction of a change whose Apple token was accepted before, so it rolls back.
private struct ReplayedProof: Error {}
