import AccountAPI
import Foundation

/// The `signup_token` of a details-first sign-up this device made, kept until its code is
/// verified: only with it does verifying sign in, so a newer sign-up of the same address by
/// someone else (with a password of theirs) can never sign this device in.
///
/// Prints without the address or the token.
struct PendingSignUpToken: Codable, Hashable, Sendable, Redacting {
    /// The address's key (``EmailRule/key(_:)`` of its normalized form), so any spelling finds it.
    let emailKey: String
    /// The opaque token from the sign-up's reply.
    let token: String

    var redactedMembers: KeyValuePairs<String, Any> { ["emailKey": Redaction.hidden, "token": Redaction.hidden] }

    static func key(of email: String) -> String { EmailRule.key(EmailRule.normalize(email)) }
}

extension SessionManager {
    /// Where the token of the sign-up waiting for its code is kept in the ``CredentialStore``,
    /// beside the session: `namespace/storageKey.signup`.
    public nonisolated var pendingSignUpKey: String { "\(credentialKey).signup" }

    /// Keeps the token of a sign-up that waits for its code (the last one this manager made), in
    /// memory and, when the store can take it now, in the store: a relaunch before the code is
    /// typed still signs in. A store that cannot write costs only that.
    func keepSignUpToken(_ accepted: SignUpAccepted) {
        guard let token = accepted.signUpToken else { return }
        let kept = PendingSignUpToken(emailKey: PendingSignUpToken.key(of: accepted.email), token: token)
        pendingSignUp = kept
        if let data = try? JSONEncoder().encode(kept) { try? store.store(key: pendingSignUpKey, value: data) }
    }

    /// The kept token of `email`'s sign-up, if this manager made the last one there.
    func keptSignUpToken(for email: String) -> String? {
        if pendingSignUp == nil, let data = try? store.retrieve(key: pendingSignUpKey) {
            pendingSignUp = try? JSONDecoder().decode(PendingSignUpToken.self, from: data)
        }
        guard let pendingSignUp, pendingSignUp.emailKey == PendingSignUpToken.key(of: email) else { return nil }
        return pendingSignUp.token
    }

    /// Forgets `email`'s kept token once its code was used (verified, or refused as superseded).
    func forgetSignUpToken(for email: String) {
        guard keptSignUpToken(for: email) != nil else { return }
        pendingSignUp = nil
        try? store.remove(key: pendingSignUpKey)
    }
}
