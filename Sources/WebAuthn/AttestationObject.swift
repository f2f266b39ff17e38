import CBOR

/// An attestation object (WebAuthn §6.5): the format, its statement and the authenticator data.
///
/// Only what a server that asks for `none` can honestly accept: `none` (an empty statement), and
/// `packed` self-attestation (no certificate chain; signed by the new credential itself), whose
/// signature is checked but which proves nothing about the authenticator's make, so it is never
/// trusted for more than `none` is.
struct AttestationObject: Sendable {
    enum Statement: Sendable {
        /// `none`: an empty statement.
        case empty
        case packedSelf(algorithm: Int, signature: [UInt8])
    }

    /// The format as sent (`none`, `packed`).
    let format: String
    let statement: Statement
    let authenticatorData: AuthenticatorData

    /// Longer attestation objects are refused unread.
    static let maximumSize = 16 * 1024

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumSize, let object = try? CBORDecoder.decode(bytes), object.map != nil,
            let format = object["fmt"]?.text, let statement = object["attStmt"]?.map, let data = object["authData"]?.bytes
        else { throw .malformedAttestation }
        switch format {
        case "none":
            guard statement.isEmpty else { throw .malformedAttestation }
            self.statement = .empty
        case "packed":
            // A certificate chain (`x5c`) is full attestation, which this server does not ask for.
            guard statement[.text("x5c")] == nil else { throw .unsupportedAttestation }
            guard statement.count == 2, let algorithm = statement[.text("alg")]?.int, let signature = statement[.text("sig")]?.bytes else {
                throw .malformedAttestation
            }
            self.statement = .packedSelf(algorithm: algorithm, signature: signature)
        default:
            throw .unsupportedAttestation
        }
        self.format = format
        self.authenticatorData = try AuthenticatorData(data)
    }

    /// WebAuthn §8.2's verification of a self-attestation, or nothing for `none`: the statement's
    /// algorithm is the credential's, and the signature over authenticator data and the client
    /// data's hash verifies under the credential's own key.
    func verify(clientDataHash: [UInt8], credentialKey: CredentialPublicKey) throws(WebAuthnError) {
        guard case .packedSelf(let algorithm, let signature) = statement else { return }
        guard algorithm == credentialKey.algorithm.rawValue else { throw .attestationSignatureInvalid }
        guard credentialKey.verify(signature: signature, message: authenticatorData.bytes + clientDataHash) else {
            throw .attestationSignatureInvalid
        }
    }
}
