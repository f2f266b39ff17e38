import AccountAPI
import Foundation

// The bytes behind the JSON forms: options decoded into what a platform API takes (AuthenticationServices
// wants `Data`), and what it returns encoded into the JSON the server reads. Kept out of the
// Apple-only code so that every platform, and the tests on Linux, run the same conversions.

/// What making a passkey needs, decoded from ``PasskeyCreationOptions``.
public struct PasskeyRegistrationCeremony: Sendable, Hashable {
    /// The relying party: the server's domain, which the app's associated domains must list.
    public let relyingPartyID: String
    /// The challenge's bytes.
    public let challenge: Data
    /// The user handle: the account id's 16 bytes.
    public let userID: Data
    /// The account's name in the passkey (its email address): what the device shows in its list.
    public let userName: String
    /// The passkeys the account has already, by credential id.
    public let excludedCredentialIDs: [Data]
}

/// What signing in with a passkey needs, decoded from ``PasskeyRequestOptions``.
public struct PasskeyAssertionCeremony: Sendable, Hashable {
    /// The relying party: the server's domain.
    public let relyingPartyID: String
    /// The challenge's bytes.
    public let challenge: Data
    /// The passkeys that may answer, by credential id: empty for a login (any of the device's for
    /// the relying party), the account's for a proof of a sensitive change.
    public let allowedCredentialIDs: [Data]
}

extension PasskeyCreationOptions {
    /// The options' bytes for a platform API.
    /// - Throws: ``AccountError/undecodableReply(status:)`` when a base64url field does not decode.
    public func ceremony() throws -> PasskeyRegistrationCeremony {
        PasskeyRegistrationCeremony(
            relyingPartyID: rp.id, challenge: try PasskeyBytes.decode(challenge),
            userID: try PasskeyBytes.decode(user.id), userName: user.name,
            excludedCredentialIDs: try excludeCredentials.map { try PasskeyBytes.decode($0.id) })
    }
}

extension PasskeyRequestOptions {
    /// The options' bytes for a platform API.
    /// - Throws: ``AccountError/undecodableReply(status:)`` when the challenge or a credential id
    ///   does not decode.
    public func ceremony() throws -> PasskeyAssertionCeremony {
        PasskeyAssertionCeremony(
            relyingPartyID: rpId, challenge: try PasskeyBytes.decode(challenge),
            allowedCredentialIDs: try allowCredentials.map { try PasskeyBytes.decode($0.id) })
    }
}

extension PasskeyRegistrationCredential {
    /// `RegistrationResponseJSON` of a new credential, from its raw parts.
    /// - Parameters:
    ///   - credentialID: the credential's id (`rawId`).
    ///   - clientDataJSON: the client data the authenticator signed over, as bytes.
    ///   - attestationObject: the CBOR attestation object.
    ///   - transports: how the device reaches it (`internal`, `hybrid`), when the platform says.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String]? = nil) {
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id, rawId: id,
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON), attestationObject: Base64URL.encode(attestationObject),
                transports: transports))
    }
}

extension PasskeyAssertionCredential {
    /// `AuthenticationResponseJSON` of a signature, from its raw parts.
    /// - Parameters:
    ///   - credentialID: the credential's id (`rawId`).
    ///   - clientDataJSON: the client data signed over, as bytes.
    ///   - authenticatorData: the authenticator data signed over.
    ///   - signature: the signature.
    ///   - userHandle: the user handle the passkey was made with.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id, rawId: id,
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON), authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map { Base64URL.encode($0) }))
    }
}

enum PasskeyBytes {
    /// The bytes of a base64url field of the options.
    /// - Throws: ``AccountError/undecodableReply(status:)``: the server's options are not as the API promises.
    static func decode(_ text: String) throws -> Data {
        guard let bytes = Base64URL.decode(text) else { throw AccountError.undecodableReply(status: 200) }
        return Data(bytes)
    }
}
