import AccountAPI
import Foundation

/// The nonce of one Sign in with Apple attempt: 32 random bytes the SDK keeps (``raw``, sent to
/// the server), whose SHA-256 in hex (``hashed``) goes to Apple in the request and comes back
/// inside the identity token. The server hashes the raw nonce and compares, so an identity token
/// taken from another attempt (or another app) is refused.
///
/// Prints without the raw nonce.
public struct AppleNonce: Sendable, Hashable {
    /// The raw nonce: 32 random bytes in base64url (43 characters). Only the server sees it.
    public let raw: String

    /// A new random nonce (the system's secure generator).
    public init() {
        var generator = SystemRandomNumberGenerator()
        raw = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The nonce `raw` (tests; an app takes a new one per attempt).
    public init(raw: String) { self.raw = raw }

    /// What goes to Apple (`ASAuthorizationAppleIDRequest.nonce`): the SHA-256 of ``raw``'s UTF-8
    /// in lower-case hex, 64 characters.
    public var hashed: String { SHA256.hex(raw.utf8) }
}

extension AppleNonce: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> { ["raw": Redaction.hidden, "hashed": hashed] }
}

/// What Apple gave the app for one Sign in with Apple request
/// (`ASAuthorizationAppleIDCredential`), as text.
///
/// Prints without its token, code and address.
public struct AppleIDAuthorization: Sendable, Hashable {
    /// The identity token: a JWT Apple signed, naming the app (`aud`), the Apple user (`sub`),
    /// the address and the hashed nonce. The server checks it against Apple's keys.
    public let identityToken: String
    /// A one-time code the server trades at Apple for a refresh token, kept to revoke the grant
    /// when the account is deleted.
    public let authorizationCode: String?
    /// Apple's stable id of the user for this team (the token's `sub`).
    public let user: String
    /// The address Apple shares (only at the first authorization; a private relay address when
    /// the person hides theirs). The server reads the token's, not this.
    public let email: String?

    /// Apple's answer.
    public init(identityToken: String, authorizationCode: String?, user: String, email: String? = nil) {
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.user = user
        self.email = email
    }
}

extension AppleIDAuthorization: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["identityToken": Redaction.hidden, "authorizationCode": Redaction.secret(authorizationCode), "user": Redaction.hidden,
         "email": Redaction.secret(email)]
    }
}

/// Apple's sheet behind a seam: shows it for a request that carries `hashedNonce` (and asks for
/// the address), and returns Apple's answer.
///
/// On Apple platforms ``platform(_:)`` runs it through AuthenticationServices; a test passes one
/// that returns a token its stand-in for Apple signed. Throws ``AuthorizationError/cancelled``
/// when the person closes the sheet; the SDK reports that as an outcome, not an error.
///
/// ```swift
/// let apple = AppleSignInAuthorizer { hashedNonce in try await myAppleSheet(nonce: hashedNonce) }
/// ```
public struct AppleSignInAuthorizer: Sendable {
    /// Asks Apple with `hashedNonce` (``AppleNonce/hashed``) in the request.
    public var authorize: @Sendable (_ hashedNonce: String) async throws -> AppleIDAuthorization

    /// An authorizer that asks Apple through `authorize`.
    public init(authorize: @escaping @Sendable (_ hashedNonce: String) async throws -> AppleIDAuthorization) {
        self.authorize = authorize
    }
}
