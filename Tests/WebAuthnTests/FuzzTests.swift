import CBOR
import Sodium
import TestSupport
import Testing
import WebAuthn

/// Mutated attestation objects, authenticator data and client data: verification must refuse
/// them (or, rarely, accept an equivalent) and never crash. Seeded, so a failure can be replayed.
@Suite struct FuzzTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ bytes: [UInt8], using random: inout Generator) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...3, using: &random) where !out.isEmpty {
            let index = Int.random(in: 0..<out.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: out[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            case 1: out[index] = UInt8.random(in: 0...255, using: &random)
            case 2: out = Array(out.prefix(index))
            default: out.insert(UInt8.random(in: 0...255, using: &random), at: index)
            }
        }
        return out
    }

    @Test(arguments: SoftwareAuthenticator.Algorithm.allCases)
    func mutatedRegistrationsNeverCrashNorPass(_ algorithm: SoftwareAuthenticator.Algorithm) {
        var random = Generator(state: 0xfa11_0001)
        let challenge = SecureRandom.bytes(count: 32)
        let passkey = SoftwareAuthenticator(algorithm: algorithm, userHandle: [1])
        let made = passkey.register(challenge: challenge, RegistrationTests.good, attestation: .packedSelf)
        var accepted = 0
        for round in 0..<(algorithm == .rs256 ? 1_500 : 4_000) {
            let object = round % 2 == 0 ? Self.mutate(made.attestationObject, using: &random) : made.attestationObject
            let client = round % 2 == 1 ? Self.mutate(made.clientDataJSON, using: &random) : made.clientDataJSON
            // A random byte may land on the value it replaced: that is no mutation.
            let changed = object != made.attestationObject || client != made.clientDataJSON
            if (try? RegistrationTests.party.verifyRegistration(
                clientDataJSON: client, attestationObject: object, rawID: made.rawID, expectedChallenge: challenge)) != nil, changed {
                accepted += 1
            }
        }
        // The self-attestation's signature covers authenticator data and client data: a change to
        // either that still parses fails it, so nothing mutated may pass. (A change in attStmt's
        // map order cannot be made by a byte flip that still parses to the same values.)
        #expect(accepted == 0)
    }

    @Test func mutatedAssertionsNeverCrashNorPass() throws {
        var random = Generator(state: 0xfa11_0002)
        var passkey = SoftwareAuthenticator(algorithm: .es256, userHandle: [1], counts: false)
        let challenge = SecureRandom.bytes(count: 32)
        let registration = passkey.register(challenge: challenge, RegistrationTests.good)
        let verified = try RegistrationTests.party.verifyRegistration(
            clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject, rawID: registration.rawID,
            expectedChallenge: challenge)
        let stored = StoredCredential(publicKey: verified.publicKey, signCount: 0, backupEligible: true)
        let assertion = passkey.assert(challenge: challenge, RegistrationTests.good)
        var accepted = 0
        for round in 0..<6_000 {
            let data = round % 3 == 0 ? Self.mutate(assertion.authenticatorData, using: &random) : assertion.authenticatorData
            let client = round % 3 == 1 ? Self.mutate(assertion.clientDataJSON, using: &random) : assertion.clientDataJSON
            let signature = round % 3 == 2 ? Self.mutate(assertion.signature, using: &random) : assertion.signature
            let changed = data != assertion.authenticatorData || client != assertion.clientDataJSON || signature != assertion.signature
            if (try? RegistrationTests.party.verifyAssertion(
                clientDataJSON: client, authenticatorData: data, signature: signature, expectedChallenge: challenge, credential: stored)) != nil, changed {
                accepted += 1
            }
        }
        #expect(accepted == 0)
    }
}
