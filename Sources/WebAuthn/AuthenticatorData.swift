import CBOR

/// Authenticator data (WebAuthn §6.1): the bytes an authenticator signs, parsed strictly.
public struct AuthenticatorData: Sendable {
    /// What the flags byte says.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP: the user was present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified (biometric, PIN).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced, a passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        public static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: extensions follow.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// A new credential, as registration's authenticator data carries it.
    public struct AttestedCredential: Sendable {
        /// The authenticator's model (16 bytes; zeros when it does not say).
        public let aaguid: [UInt8]
        /// The credential id, 1…1023 bytes.
        public let id: [UInt8]
        /// The credential's public key.
        public let publicKey: CredentialPublicKey
    }

    /// The longest credential id WebAuthn allows (§7.1 step 25).
    public static let maximumCredentialIDLength = 1023

    /// The exact bytes, as signed.
    public let bytes: [UInt8]
    /// SHA-256 of the RP id the authenticator used.
    public let rpIDHash: [UInt8]
    public let flags: Flags
    /// The signature counter (0 when the authenticator keeps none).
    public let signCount: UInt32
    /// Present when the AT flag is set.
    public let attestedCredential: AttestedCredential?

    /// Parses `bytes`: 37 fixed bytes, then attested credential data when AT is set, then an
    /// extensions map when ED is set, and nothing else.
    /// - Throws: ``WebAuthnError/malformedAuthenticatorData``, or the public key's error.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformedAuthenticatorData }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw .malformedAuthenticatorData }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length >= 1, length <= Self.maximumCredentialIDLength, bytes.count >= position + length else {
                throw .malformedAuthenticatorData
            }
            let id = Array(bytes[position..<position + length])
            position += length
            guard let decoded = try? CBORDecoder.decodePrefix(bytes, from: position) else { throw .malformedAuthenticatorData }
            let (key, end) = decoded
            let publicKey = try CredentialPublicKey(key, encoded: Array(bytes[position..<end]))
            position = end
            attestedCredential = AttestedCredential(aaguid: aaguid, id: id, publicKey: publicKey)
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard let decoded = try? CBORDecoder.decodePrefix(bytes, from: position), decoded.0.map != nil else {
                throw .malformedAuthenticatorData
            }
            position = decoded.end
        }
        guard position == bytes.count else { throw .malformedAuthenticatorData }
    }
}
