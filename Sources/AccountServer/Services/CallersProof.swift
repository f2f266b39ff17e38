import AccountAPI
import AccountStore
import Foundation

/// What a sensitive change (account deletion, second-factor changes, passkey removal) asks of the
/// signed-in caller: the password, or, for an account without one (made with Apple), a fresh
/// identity token of its linked Apple ID (`apple_identity_token` and `apple_nonce` where the
/// password would go).
enum CallersProof: Sendable {
    case password(String)
    case apple(token: String, nonce: String)

    /// The proof a request gives for `user`, or `nil` with the field errors added to `errors`:
    /// `password` `required`, or for an account without a password `apple_identity_token` and
    /// `apple_nonce` `required`.
    static func parse(password: String?, appleIdentityToken: String?, appleNonce: String?, for user: UserRecord, into errors: inout FieldErrors) -> CallersProof? {
        if let password, !password.isEmpty { return .password(password) }
        guard !user.hasPassword else {
            errors.add(.required, to: "password")
            return nil
        }
        if (appleIdentityToken ?? "").isEmpty { errors.add(.required, to: "apple_identity_token") }
        if (appleNonce ?? "").isEmpty { errors.add(.required, to: "apple_nonce") }
        guard let appleIdentityToken, let appleNonce, !appleIdentityToken.isEmpty, !appleNonce.isEmpty else { return nil }
        return .apple(token: appleIdentityToken, nonce: appleNonce)
    }
}

extension Services {
    /// Checks the caller's proof: the password under the account's login back-off (a wrong one is
    /// `403 invalid_credentials`), or an Apple identity token issued in the last 10 minutes to the
    /// Apple ID linked to the account (anything else is `403 apple_token_invalid`, logged with the
    /// failed check).
    func checkCallersProof(_ proof: CallersProof, _ context: AuthenticatedContext, via route: String) async throws {
        switch proof {
        case .password(let password):
            try await throttle.checkCallersPassword(password, context, via: route)
        case .apple(let token, let nonce):
            let identity = try await apple.identity(
                token, nonce: nonce, context.base, userID: context.userID, via: route, maximumAge: AppleSignIn.proofMaximumAge, status: 403)
            let userID = context.userID
            guard try await store.read({ try $0.appleIdentity(userID: userID) })?.subject == identity.subject else {
                context.audit(.appleTokenRefused, ["via": route, "reason": AppleTokenRefusal.wrongUser.reason])
                throw APIError(403, .appleTokenInvalid)
            }
        }
    }
}
