import AccountAPI
import Foundation

extension SessionManager {
    // MARK: Passkeys

    /// Logs in with a passkey the person picks on this device (no nickname, password or second
    /// factor), stores the pair like ``logIn(_:)``, and publishes `signedIn`.
    ///
    /// - Returns: ``PasskeyLoginOutcome/cancelled`` when the person closed the system's sheet
    ///   (nothing changed).
    /// - Throws: the server's refusal as ``AccountError`` (``ErrorCode/passkeyInvalid`` for a
    ///   passkey no account has any more, ``ErrorCode/challengeExpired`` after 5 minutes in the
    ///   sheet); the device's failure as ``AuthorizationError``.
    public func logInWithPasskey(using authorizer: PasskeyAuthorizer) async throws -> PasskeyLoginOutcome {
        let options = try await client.passkeyLoginOptions()
        guard let credential = try await Self.ceremony({ try await authorizer.assert(options) }) else { return .cancelled }
        let pair = try await client.logInWithPasskey(PasskeyLoginRequest(credential: credential))
        try await adopt(pair)
        return .signedIn(pair.user)
    }

    /// Adds a passkey of this device to the signed-in account, under `name` (1–64 characters,
    /// shown in the account's list: "iPhone", "회사 노트북"), proven as `proof` says (what the
    /// account held before: ``StepUpRequirement`` for ``SensitiveChange/addPasskey``; a passkey
    /// proof is a sheet before the one that makes the new passkey). The owner gets a notice by mail.
    ///
    /// - Returns: ``PasskeyAddOutcome/cancelled`` when the person closed the system's sheet.
    /// - Throws: ``AccountError`` (``AccountError/invalidInput(_:)`` for the name,
    ///   ``AccountError/proofRequired(_:)`` for a proof short of what the account needs,
    ///   ``AccountError/invalidCredentials`` for a wrong password, ``ErrorCode/passkeyExists``,
    ///   ``ErrorCode/passkeyLimitReached``…); ``AuthorizationError``.
    public func addPasskey(named name: String, using authorizer: PasskeyAuthorizer, proof: AccountProof) async throws -> PasskeyAddOutcome {
        let client = client
        let options = try await authorized { try await client.passkeyRegistrationOptions(accessToken: $0) }
        guard let credential = try await Self.ceremony({ try await authorizer.register(options) }) else { return .cancelled }
        let request = PasskeyRegisterRequest(name: name, credential: credential, proof: StepUpProof(proof))
        let passkey = try await authorized { try await client.registerPasskey(request, accessToken: $0) }
        notePasskeys(delta: 1)
        return .added(passkey)
    }

    /// `GET /auth/passkeys`: the account's passkeys, oldest first (what
    /// ``currentStepUpRequirement(for:)`` knows of them from then on).
    public func passkeys() async throws -> [Passkey] {
        let client = client
        let list = try await authorized { try await client.passkeys(accessToken: $0) }
        notePasskeys(count: list.count)
        return list
    }

    /// Removes one of the account's passkeys, proven as `proof` says (``StepUpRequirement`` for
    /// ``SensitiveChange/removePasskey``: a passkey's assertion, the password, or a fresh Apple
    /// identity token for an account without a password; with the second factor while it is on).
    /// The owner gets a notice by mail.
    ///
    /// - Throws: ``AccountError/invalidCredentials`` for a wrong password (the session stays),
    ///   ``AccountError/codeRejected(_:)`` for a wrong code, ``AccountError/proofRequired(_:)`` for
    ///   a proof short of what the account needs (``AccountError/needsSecondFactor`` when it is
    ///   the second factor).
    public func removePasskey(id: UUID, proof: AccountProof) async throws {
        let client = client
        let request = StepUpProof(proof)
        try await authorized { try await client.deletePasskey(id: id, request, accessToken: $0) }
        notePasskeys(delta: -1)
    }

    /// A proof of identity by one of the account's passkeys for a sensitive change (the system's
    /// sheet through `authorizer`, for a challenge of this session); `nil` when the person closed
    /// the sheet. Add the second factor while it is on. The proof is good once, for 5 minutes.
    ///
    /// - Throws: ``AccountError/refused(_:)`` with ``ErrorCode/notFound`` when the account has no
    ///   passkey; ``AuthorizationError`` for the device's failure.
    public func passkeyProof(using authorizer: PasskeyAuthorizer, secondFactor: SecondFactorEntry? = nil) async throws -> AccountProof? {
        let client = client
        let options = try await authorized { try await client.passkeyReauthenticationOptions(accessToken: $0) }
        guard let assertion = try await Self.ceremony({ try await authorizer.assert(options) }) else { return nil }
        return AccountProof(.passkey(assertion), secondFactor: secondFactor)
    }

    /// Runs one of the device's ceremonies: its credential, or `nil` when the person cancelled.
    /// - Throws: any other failure as ``AuthorizationError`` (an ``AccountError`` as it is).
    static func ceremony<Credential: Sendable>(_ run: () async throws -> Credential) async throws -> Credential? {
        do {
            return try await run()
        } catch let error as AccountError {
            throw error
        } catch {
            let failure = AuthorizationError(error)
            if failure.isCancellation { return nil }
            throw failure
        }
    }
}
