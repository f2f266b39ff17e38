import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebAuthn

/// What the passkey routes share: the relying party (RP id and allowed origins), challenges made
/// and taken once, and the reading of the WebAuthn JSON forms.
///
/// Challenges are stored by their SHA-256 (`webauthn_challenges`), not signed, so a challenge
/// answered on one server is spent for every server on the database.
package struct PasskeyCeremonies: Sendable {
    /// How long a challenge may be answered: 5 minutes, the options' `timeout`.
    package static let challengeLifetime: TimeInterval = 300
    /// Passkeys one account may hold.
    package static let maximumPerAccount = 20
    /// The longest device name, in characters.
    package static let maximumNameLength = 64
    /// The algorithms offered, in the order of preference: EdDSA, ES256, RS256.
    package static let algorithms: [COSEAlgorithm] = [.eddsa, .es256, .rs256]

    /// Who asks for passkeys: the relying party's id and the origins its pages are served from.
    package let party: RelyingParty
    /// The name an authenticator shows for the relying party.
    package let name: String
    /// Where challenges are drawn from.
    package let random: Randomness

    /// A new random challenge and its row, which the caller stores (sweeping expired ones).
    package func newChallenge(_ purpose: WebAuthnChallengeRecord.Purpose, userID: UUID?, now: Date) -> (text: String, record: WebAuthnChallengeRecord) {
        let bytes = random.bytes(32)
        return (Base64URL.encode(bytes), WebAuthnChallengeRecord(
            hash: Digest.sha256(bytes), purpose: purpose, userID: userID, expiresAt: now.addingTimeInterval(Self.challengeLifetime)))
    }

    /// The user handle of an account: its UUID's 16 bytes.
    package static func userHandle(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    /// What taking a challenge came to.
    package enum Taken: Sendable {
        case taken
        case unknown
        case expired
    }

    /// Takes (spends) the challenge whose SHA-256 is `hash` if it was issued for `purpose` and, for
    /// a registration, to `userID`; one statement, so of two answers on any servers one gets it.
    package func take(_ hash: [UInt8], _ purpose: WebAuthnChallengeRecord.Purpose, userID: UUID?, now: Date, in tx: any StoreTransaction) throws -> Taken {
        guard let challenge = try tx.takeWebAuthnChallenge(hash: hash), challenge.purpose == purpose, challenge.userID == userID else {
            return .unknown
        }
        return challenge.expiresAt > now ? .taken : .expired
    }

    /// The bytes of a base64url field of a credential, or `passkey_invalid`.
    package static func bytes(_ text: String, limit: Int) throws -> [UInt8] {
        guard text.utf8.count <= limit * 4 / 3 + 4, let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw PasskeyRefusal.malformed
        }
        return bytes
    }

    /// A device name as given: trimmed, 1–64 characters, no control or invisible characters.
    package static func deviceName(_ text: String?, into errors: inout FieldErrors) -> String? {
        let name = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            errors.add(.required, to: "name")
            return nil
        }
        guard name.count <= maximumNameLength else {
            errors.add(.tooLong, to: "name")
            return nil
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isDefaultIgnorableCodePoint }) else {
            errors.add(.invalidFormat, to: "name")
            return nil
        }
        return name
    }

    /// The list entry of a stored passkey.
    package static func wire(_ passkey: PasskeyRecord) -> Passkey {
        Passkey(
            id: passkey.id, name: passkey.name, credentialID: Base64URL.encode(passkey.credentialID), algorithm: passkey.algorithm,
            backupEligible: passkey.backupEligible, backedUp: passkey.backedUp, transports: passkey.transports,
            createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt)
    }

    /// The `amr` of a session opened with a passkey: the key (`swk` when it is synced, `hwk` when
    /// it cannot leave its device), the user's verification (`user`) and, both together, `mfa`.
    package static func authenticationMethods(backupEligible: Bool) -> [String] {
        [backupEligible ? AuthenticationMethod.softwareKey : AuthenticationMethod.hardwareKey,
         AuthenticationMethod.userPresence, AuthenticationMethod.multipleFactors]
    }
}

/// Why a passkey response was refused, for the log's `reason` (the reply says only `passkey_invalid`).
package enum PasskeyRefusal: Error, Sendable {
    /// Not the JSON form: a field not base64url, `id` not `rawId`, `type` not `public-key`.
    case malformed
    /// No account has the credential id.
    case unknownCredential
    /// The `userHandle` is not the credential owner's.
    case wrongUser
    /// A WebAuthn check.
    case check(WebAuthnError)

    package var reason: String {
        switch self {
        case .malformed: "malformed"
        case .unknownCredential: "unknown_credential"
        case .wrongUser: "wrong_user_handle"
        case .check(let error): error.rule
        }
    }
}
