import CBOR
import Foundation
import Sodium
import TestSupport
import Testing
import WebAuthn

/// WebAuthn §7.2 against assertions of the software authenticator, one broken rule at a time.
@Suite struct AssertionTests {
    static let party = RegistrationTests.party
    static let good = RegistrationTests.good

    /// A registered passkey and what the server stored of it.
    func registered(_ algorithm: SoftwareAuthenticator.Algorithm = .es256, counts: Bool = true) throws -> (SoftwareAuthenticator, StoredCredential) {
        let passkey = SoftwareAuthenticator(algorithm: algorithm, userHandle: [9], counts: counts)
        let challenge = SecureRandom.bytes(count: 32)
        let verified = try Self.party.verifyRegistration(
            clientDataJSON: passkey.register(challenge: challenge, Self.good).clientDataJSON,
            attestationObject: passkey.register(challenge: challenge, Self.good).attestationObject, rawID: passkey.credentialID,
            expectedChallenge: challenge)
        let stored = StoredCredential(
            publicKey: try CredentialPublicKey(encoded: verified.publicKey.encoded), signCount: verified.signCount,
            backupEligible: verified.backupEligible)
        return (passkey, stored)
    }

    func verify(_ assertion: SoftwareAuthenticator.Assertion, challenge: [UInt8], _ stored: StoredCredential) throws(WebAuthnError) -> VerifiedAssertion {
        try Self.party.verifyAssertion(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature,
            expectedChallenge: challenge, credential: stored)
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func aGoodAssertionOfEachAlgorithmVerifies(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        var (passkey, stored) = try registered(algorithm)
        let challenge = SecureRandom.bytes(count: 32)
        let verified = try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored)
        #expect(verified.signCount == 1)
        #expect(verified.backedUp)
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func aTamperedSignatureOrSignedByteFails(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        var (passkey, stored) = try registered(algorithm)
        let challenge = SecureRandom.bytes(count: 32)
        let assertion = passkey.assert(challenge: challenge, Self.good)
        var signature = assertion.signature
        signature[signature.count / 2] ^= 0x04
        #expect(throws: WebAuthnError.signatureInvalid) {
            try Self.party.verifyAssertion(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: signature,
                expectedChallenge: challenge, credential: stored)
        }
        #expect(throws: WebAuthnError.signatureInvalid) {
            try Self.party.verifyAssertion(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: [],
                expectedChallenge: challenge, credential: stored)
        }
        var data = assertion.authenticatorData
        data[36] ^= 0x01  // the counter: still well-formed, no longer what was signed
        #expect(throws: WebAuthnError.signatureInvalid) {
            try Self.party.verifyAssertion(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: data, signature: assertion.signature,
                expectedChallenge: challenge, credential: stored)
        }
        // Client data with one more space: the same fields, not the signed bytes.
        let spaced = Array(String(decoding: assertion.clientDataJSON, as: UTF8.self).replacingOccurrences(of: ",", with: ", ").utf8)
        #expect(throws: WebAuthnError.signatureInvalid) {
            try Self.party.verifyAssertion(
                clientDataJSON: spaced, authenticatorData: assertion.authenticatorData, signature: assertion.signature,
                expectedChallenge: challenge, credential: stored)
        }
        // Another credential's key.
        let (_, stranger) = try registered(algorithm)
        #expect(throws: WebAuthnError.signatureInvalid) { try verify(assertion, challenge: challenge, stranger) }
    }

    @Test func eachRuleOfTheCeremonyHolds() throws {
        var (passkey, stored) = try registered()
        let challenge = SecureRandom.bytes(count: 32)
        var ceremony = Self.good
        ceremony.origin = "https://evil.example"
        #expect(throws: WebAuthnError.originNotAllowed) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.rpID = "evil.example"
        #expect(throws: WebAuthnError.rpIDMismatch) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.type = "webauthn.create"
        #expect(throws: WebAuthnError.wrongType) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.userVerified = false
        #expect(throws: WebAuthnError.userNotVerified) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.userPresent = false
        #expect(throws: WebAuthnError.userNotPresent) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.backupEligible = false
        ceremony.backedUp = false
        #expect(throws: WebAuthnError.backupFlagsInvalid) { try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored) }
        ceremony = Self.good
        ceremony.backedUp = false
        #expect(try verify(passkey.assert(challenge: challenge, ceremony), challenge: challenge, stored).backedUp == false)
        #expect(throws: WebAuthnError.challengeMismatch) {
            try verify(passkey.assert(challenge: challenge, Self.good), challenge: SecureRandom.bytes(count: 32), stored)
        }
        // Registration's data (with a credential in it) is no assertion.
        let made = passkey.register(challenge: challenge, Self.good)
        let assertion = passkey.assert(challenge: challenge, Self.good)
        #expect(throws: WebAuthnError.credentialDataMissing) {
            try Self.party.verifyAssertion(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: made.authenticatorData,
                signature: passkey.sign(made.authenticatorData + Digest.sha256(assertion.clientDataJSON)), expectedChallenge: challenge, credential: stored)
        }
    }

    @Test func theCounterMustGoUpWhenEitherSideCounts() throws {
        var (passkey, stored) = try registered()
        let challenge = SecureRandom.bytes(count: 32)
        passkey.signCount = 41
        let verified = try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored)
        #expect(verified.signCount == 42)
        stored = StoredCredential(publicKey: stored.publicKey, signCount: 42, backupEligible: true)
        // A clone still at 42, and one that went back to 0 or 10.
        for start: UInt32 in [41, 9] {
            passkey.signCount = start
            #expect(throws: WebAuthnError.signCountWentBack) { try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored) }
        }
        passkey.counts = false
        passkey.signCount = 0
        #expect(throws: WebAuthnError.signCountWentBack) { try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored) }
        passkey.counts = true
        passkey.signCount = 42
        #expect(try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored).signCount == 43)
    }

    @Test func aPasskeyThatKeepsNoCounterIsFine() throws {
        var (passkey, stored) = try registered(counts: false)
        for _ in 0..<3 {
            let challenge = SecureRandom.bytes(count: 32)
            #expect(try verify(passkey.assert(challenge: challenge, Self.good), challenge: challenge, stored).signCount == 0)
        }
    }
}
