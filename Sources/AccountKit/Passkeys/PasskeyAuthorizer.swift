import AccountAPI
import Foundation

/// The device's half of the two passkey ceremonies, behind a seam: make a credential for the
/// server's creation options, and sign its request options with one the person picks.
///
/// On Apple platforms ``platform(_:)`` runs them through AuthenticationServices (Face ID, Touch
/// ID or the device passcode; the passkey lives in iCloud Keychain); anything else (a test's
/// software authenticator, another platform's API) fits the same two closures. The SDK does the
/// server's half (``SessionManager/logInWithPasskey(using:)``,
/// ``SessionManager/addPasskey(named:using:)``).
///
/// Both closures throw ``AuthorizationError/cancelled`` when the person closes the sheet; the SDK
/// reports that as an outcome, not an error.
///
/// ```swift
/// let passkeys = PasskeyAuthorizer(
///     register: { options in try await myAuthenticator.create(options) },
///     assert: { options in try await myAuthenticator.get(options) })
/// ```
public struct PasskeyAuthorizer: Sendable {
    /// Makes a passkey for `PublicKeyCredentialCreationOptionsJSON` (its `rp.id`, `user` and
    /// `challenge`; see ``PasskeyCreationOptions/ceremony()``) and returns `RegistrationResponseJSON`.
    public var register: @Sendable (PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential
    /// Signs `PublicKeyCredentialRequestOptionsJSON`'s challenge with a passkey of its `rpId` the
    /// person picks (at login any of theirs: the server names none; for a proof one of
    /// `allowCredentials`) and returns `AuthenticationResponseJSON`.
    public var assert: @Sendable (PasskeyRequestOptions) async throws -> PasskeyAssertionCredential

    /// An authorizer of these two ceremonies.
    public init(
        register: @escaping @Sendable (PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential,
        assert: @escaping @Sendable (PasskeyRequestOptions) async throws -> PasskeyAssertionCredential
    ) {
        self.register = register
        self.assert = assert
    }
}

/// How logging in with a passkey ended.
public enum PasskeyLoginOutcome: Sendable, Hashable {
    /// Signed in; the session holds the tokens.
    case signedIn(User)
    /// The person closed the sheet: nothing changed and there is nothing to show.
    case cancelled
}

/// How adding a passkey ended.
public enum PasskeyAddOutcome: Sendable, Hashable {
    /// The account has the new passkey.
    case added(Passkey)
    /// The person closed the sheet: nothing was added and there is nothing to show.
    case cancelled
}
