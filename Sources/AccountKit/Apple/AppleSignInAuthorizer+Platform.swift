#if canImport(AuthenticationServices)
import AuthenticationServices

extension AppleSignInAuthorizer {
    /// Sign in with Apple through AuthenticationServices' sheet.
    ///
    /// The app needs the Sign in with Apple capability, and its bundle id must be one of the
    /// server's `--apple-client-id`s; see `Examples/PlaygroundApp/README.md`.
    public static func platform(_ authorization: PlatformAuthorization = .controller()) -> AppleSignInAuthorizer {
        AppleSignInAuthorizer { hashedNonce in try await PlatformAppleID.authorize(hashedNonce, authorization) }
    }
}

extension ASAuthorizationAppleIDRequest {
    /// Asks for what the account needs, with `hashedNonce` (``AppleNonce/hashed``): the email
    /// address only. The name is not asked for: the account has a nickname the person chooses.
    public func configure(hashedNonce: String) {
        requestedScopes = [.email]
        nonce = hashedNonce
    }
}

extension AppleIDAuthorization {
    /// The text of Apple's credential.
    /// - Throws: ``AuthorizationError/incompleteResponse(_:)`` without an identity token.
    public init(_ credential: ASAuthorizationAppleIDCredential) throws {
        guard let token = credential.identityToken.flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw AuthorizationError.incompleteResponse("no identity token")
        }
        self.init(
            identityToken: token, authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
            user: credential.user, email: credential.email)
    }

    /// What `SignInWithAppleButton`'s completion gives, as the SDK takes it
    /// (``LoginForm/finishAppleSignIn(_:)``).
    public static func result(_ result: Result<ASAuthorization, any Error>) -> Result<AppleIDAuthorization, AuthorizationError> {
        do {
            guard let credential = try result.get().credential as? ASAuthorizationAppleIDCredential else {
                return .failure(.incompleteResponse("not an Apple ID credential"))
            }
            return .success(try AppleIDAuthorization(credential))
        } catch {
            return .failure(AuthorizationError(error))
        }
    }
}

@MainActor private enum PlatformAppleID {
    static func authorize(_ hashedNonce: String, _ authorization: PlatformAuthorization) async throws -> AppleIDAuthorization {
        let request = ASAuthorizationAppleIDProvider().createRequest()
        request.configure(hashedNonce: hashedNonce)
        guard let credential = try await authorization.perform(request) as? ASAuthorizationAppleIDCredential else {
            throw AuthorizationError.incompleteResponse("not an Apple ID credential")
        }
        return try AppleIDAuthorization(credential)
    }
}
#endif
