import CBOR
import Sodium
import TestSupport
import Testing
import WebAuthn

/// WebAuthn §7.1 against responses of the software authenticator, one broken rule at a time.
@Suite struct RegistrationTests {
    static let party = RelyingParty(id: "example.com", origins: ["https://example.com", "https://app.example.com"])
    static let good = SoftwareAuthenticator.Ceremony(rpID: "example.com", origin: "https://example.com")
    let challenge = SecureRandom.bytes(count: 32)

    func verify(_ made: SoftwareAuthenticator.Registration, challenge expected: [UInt8]? = nil) throws(WebAuthnError) -> VerifiedRegistration {
        try Self.party.verifyRegistration(
            clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject, rawID: made.rawID,
            expectedChallenge: expected ?? challenge)
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func aGoodRegistrationOfEachAlgorithmVerifies(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let passkey = SoftwareAuthenticator(algorithm: algorithm, userHandle: [1, 2, 3])
        let verified = try verify(passkey.register(challenge: challenge, Self.good))
        #expect(verified.credentialID == passkey.credentialID)
        #expect(verified.publicKey.algorithm.rawValue == passkey.coseAlgorithm)
        #expect(verified.publicKey.encoded == passkey.coseKey)
        #expect(verified.backupEligible && verified.backedUp)
        #expect(verified.attestationFormat == "none")
        #expect(verified.signCount == 0)
        #expect(verified.aaguid == [UInt8](repeating: 0, count: 16))
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func packedSelfAttestationIsCheckedAndAccepted(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let passkey = SoftwareAuthenticator(algorithm: algorithm, userHandle: [1])
        let made = passkey.register(challenge: challenge, Self.good, attestation: .packedSelf)
        #expect(try verify(made).attestationFormat == "packed")

        // The same statement over other authenticator data: its signature no longer verifies.
        let object = try CBORDecoder.decode(made.attestationObject)
        var data = object["authData"]!.bytes!
        data[34] ^= 1  // the counter
        let forged = CBOREncoder.encode(.map([.text("fmt"): object["fmt"]!, .text("attStmt"): object["attStmt"]!, .text("authData"): .bytes(data)]))
        #expect(throws: WebAuthnError.attestationSignatureInvalid) {
            try Self.party.verifyRegistration(clientDataJSON: made.clientDataJSON, attestationObject: forged, rawID: made.rawID, expectedChallenge: challenge)
        }
    }

    @Test func otherAttestationsAreRefused() throws {
        let made = SoftwareAuthenticator(userHandle: [1]).register(challenge: challenge, Self.good)
        let data = CBOREncoder.encode(.bytes(made.authenticatorData))
        func object(_ format: String, _ statement: CBOR) -> [UInt8] {
            CBOREncoder.encode(.map([.text("fmt"): .text(format), .text("attStmt"): statement, .text("authData"): .bytes(made.authenticatorData)]))
        }
        #expect(!data.isEmpty)
        let cases: [([UInt8], WebAuthnError)] = [
            (object("packed", .map([.text("alg"): .int(-7), .text("sig"): .bytes([0x30]), .text("x5c"): .array([.bytes([0x30])])])), .unsupportedAttestation),
            (object("fido-u2f", .map([:])), .unsupportedAttestation),
            (object("tpm", .map([:])), .unsupportedAttestation),
            (object("none", .map([.text("alg"): .int(-7)])), .malformedAttestation),
            (object("packed", .map([.text("alg"): .int(-7)])), .malformedAttestation),
            (CBOREncoder.encode(.map([.text("fmt"): .text("none"), .text("attStmt"): .map([:])])), .malformedAttestation),
            (CBOREncoder.encode(.array([])), .malformedAttestation),
            ([0xa3], .malformedAttestation),
            ([UInt8](repeating: 0xa0, count: 20_000), .malformedAttestation),
        ]
        for (bytes, error) in cases {
            #expect(throws: error) {
                try Self.party.verifyRegistration(clientDataJSON: made.clientDataJSON, attestationObject: bytes, rawID: made.rawID, expectedChallenge: challenge)
            }
        }
        // A self-attestation naming another algorithm than the credential's.
        let passkey = SoftwareAuthenticator(algorithm: .es256, userHandle: [1])
        let packed = passkey.register(challenge: challenge, Self.good, attestation: .packedSelf)
        let parsed = try CBORDecoder.decode(packed.attestationObject)
        let other = CBOREncoder.encode(.map([
            .text("fmt"): .text("packed"), .text("attStmt"): .map([.text("alg"): .int(-8), .text("sig"): parsed["attStmt"]!["sig"]!]),
            .text("authData"): parsed["authData"]!,
        ]))
        #expect(throws: WebAuthnError.attestationSignatureInvalid) {
            try Self.party.verifyRegistration(clientDataJSON: packed.clientDataJSON, attestationObject: other, rawID: packed.rawID, expectedChallenge: challenge)
        }
    }

    @Test func eachClientDataRuleHolds() {
        let passkey = SoftwareAuthenticator(userHandle: [1])
        var ceremony = Self.good
        ceremony.origin = "https://evil.example"
        #expect(throws: WebAuthnError.originNotAllowed) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony.origin = "https://example.com/"
        #expect(throws: WebAuthnError.originNotAllowed) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony.origin = "http://example.com"
        #expect(throws: WebAuthnError.originNotAllowed) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony.origin = "https://app.example.com"
        #expect(throws: Never.self) { try verify(passkey.register(challenge: challenge, ceremony)) }

        ceremony = Self.good
        ceremony.type = "webauthn.get"
        #expect(throws: WebAuthnError.wrongType) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony = Self.good
        ceremony.crossOrigin = true
        #expect(throws: WebAuthnError.crossOrigin) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony.crossOrigin = false
        #expect(throws: Never.self) { try verify(passkey.register(challenge: challenge, ceremony)) }

        let other = SecureRandom.bytes(count: 32)
        #expect(throws: WebAuthnError.challengeMismatch) { try verify(passkey.register(challenge: other, Self.good)) }
        #expect(throws: WebAuthnError.challengeMismatch) { try verify(passkey.register(challenge: Array(challenge.prefix(31)), Self.good)) }
    }

    @Test func malformedClientDataIsRefused() {
        let made = SoftwareAuthenticator(userHandle: [1]).register(challenge: challenge, Self.good)
        let bad: [String] = [
            "", "[]", "null", #"{"type":"webauthn.create","origin":"https://example.com"}"#,
            #"{"type":"webauthn.create","challenge":"AA==","origin":"https://example.com"}"#,
            #"{"type":"webauthn.create","challenge":"","origin":"https://example.com"}"#,
            #"{"type":1,"challenge":"AAAA","origin":"https://example.com"}"#,
            #"{"type":"webauthn.create","challenge":"AAAA","origin":["https://example.com"]}"#,
            #"{"type":"webauthn.create","challenge":"AAAA","origin":"https://example.com","crossOrigin":"no"}"#,
            #"{"type":"webauthn.create","challenge":"AA+/","origin":"https://example.com"}"#,
            String(repeating: " ", count: 5000) + "{}",
        ]
        for text in bad {
            #expect(throws: WebAuthnError.malformedClientData, "\(text.prefix(60))") {
                try Self.party.verifyRegistration(
                    clientDataJSON: Array(text.utf8), attestationObject: made.attestationObject, rawID: made.rawID, expectedChallenge: challenge)
            }
        }
    }

    @Test func eachAuthenticatorDataRuleHolds() {
        let passkey = SoftwareAuthenticator(userHandle: [1])
        var ceremony = Self.good
        ceremony.rpID = "evil.example"
        #expect(throws: WebAuthnError.rpIDMismatch) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony = Self.good
        ceremony.userVerified = false
        #expect(throws: WebAuthnError.userNotVerified) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony = Self.good
        ceremony.userPresent = false
        #expect(throws: WebAuthnError.userNotPresent) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony = Self.good
        ceremony.backupEligible = false
        #expect(throws: WebAuthnError.backupFlagsInvalid) { try verify(passkey.register(challenge: challenge, ceremony)) }
        ceremony.backedUp = false
        let deviceBound = try? verify(passkey.register(challenge: challenge, ceremony))
        #expect(deviceBound?.backupEligible == false && deviceBound?.backedUp == false)

        let made = passkey.register(challenge: challenge, Self.good)
        #expect(throws: WebAuthnError.credentialIDMismatch) {
            try Self.party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject, rawID: made.rawID + [0], expectedChallenge: challenge)
        }
    }

    @Test func authenticatorDataMustBeExact() throws {
        let passkey = SoftwareAuthenticator(userHandle: [1])
        let made = passkey.register(challenge: challenge, Self.good)
        func with(_ data: [UInt8]) -> [UInt8] {
            CBOREncoder.encode(.map([.text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .bytes(data)]))
        }
        let data = made.authenticatorData
        var noAT = data
        noAT[32] &= ~0x40
        var claimsExtensions = data
        claimsExtensions[32] |= 0x80
        var longID = Array(data.prefix(53))
        longID += [0x04, 0x00] + [UInt8](repeating: 7, count: 1024) + passkey.coseKey
        var zeroID = Array(data.prefix(53))
        zeroID += [0, 0] + passkey.coseKey
        let cases: [([UInt8], WebAuthnError)] = [
            (data + [0], .malformedAuthenticatorData),
            (Array(data.dropLast()), .malformedAuthenticatorData),
            (Array(data.prefix(36)), .malformedAuthenticatorData),
            (Array(data.prefix(40)), .malformedAuthenticatorData),
            (claimsExtensions, .malformedAuthenticatorData),
            (longID, .malformedAuthenticatorData),
            (zeroID, .malformedAuthenticatorData),
        ]
        for (bytes, error) in cases {
            #expect(throws: error) {
                try Self.party.verifyRegistration(clientDataJSON: made.clientDataJSON, attestationObject: with(bytes), rawID: made.rawID, expectedChallenge: challenge)
            }
        }
        // Extensions after the key are read and must be one map.
        #expect(throws: Never.self) {
            try Self.party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: with(claimsExtensions + [0xa0]), rawID: made.rawID, expectedChallenge: challenge)
        }
        #expect(throws: WebAuthnError.malformedAuthenticatorData) {
            try Self.party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: with(claimsExtensions + [0x80]), rawID: made.rawID, expectedChallenge: challenge)
        }
        // No credential in a registration.
        #expect(throws: WebAuthnError.malformedAuthenticatorData) {
            try Self.party.verifyRegistration(clientDataJSON: made.clientDataJSON, attestationObject: with(noAT), rawID: made.rawID, expectedChallenge: challenge)
        }
        #expect(throws: WebAuthnError.credentialDataMissing) {
            try Self.party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: with(Array(noAT.prefix(37))), rawID: made.rawID, expectedChallenge: challenge)
        }
    }

    @Test func publicKeysAreChecked() throws {
        let passkey = SoftwareAuthenticator(algorithm: .es256, userHandle: [1])
        let key = try CBORDecoder.decode(passkey.coseKey)
        let x = key[-2]!.bytes!, y = key[-3]!.bytes!
        var offCurve = y
        offCurve[0] ^= 1
        let cases: [(CBOR, WebAuthnError)] = [
            (.map([.int(1): .int(2), .int(3): .int(-35), .int(-1): .int(2), .int(-2): .bytes(x), .int(-3): .bytes(y)]), .unsupportedAlgorithm),
            (.map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(offCurve)]), .malformedPublicKey),
            (.map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(2), .int(-2): .bytes(x), .int(-3): .bytes(y)]), .malformedPublicKey),
            (.map([.int(1): .int(1), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(y)]), .malformedPublicKey),
            (.map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x)]), .malformedPublicKey),
            (.map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(y), .int(-4): .bytes(x)]), .malformedPublicKey),
            (.map([.int(1): .int(1), .int(3): .int(-8), .int(-1): .int(6), .int(-2): .bytes(Array(x.prefix(31)))]), .malformedPublicKey),
            (.map([.int(1): .int(3), .int(3): .int(-257), .int(-1): .bytes([UInt8](repeating: 0xff, count: 128)), .int(-2): .bytes([1, 0, 1])]), .malformedPublicKey),
            (.map([.int(1): .int(2), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(y)]), .malformedPublicKey),
            (.array([]), .malformedPublicKey),
        ]
        for (value, error) in cases {
            #expect(throws: error) { try CredentialPublicKey(encoded: CBOREncoder.encode(value)) }
        }
        #expect(throws: Never.self) { try CredentialPublicKey(encoded: passkey.coseKey) }
    }
}
