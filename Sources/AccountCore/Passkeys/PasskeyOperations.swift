import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebAuthn

/// The signed-in account's passkeys: a registration started and finished, the list, and one
/// removed.
///
/// Every challenge is single use on every server (stored, taken in one statement), lives 5
/// minutes, and is bound to its ceremony and the account; every refusal of a credential is a
/// `passkey_refused` event naming the check, and the reply says only `passkey_invalid`.
package struct PasskeyOperations {
    package let services: Services

    /// What starting a registration came to.
    package enum RegistrationStart: Sendable {
        /// A new challenge is stored; `held` are the caller's passkeys, to exclude.
        case started(challenge: String, held: [PasskeyRecord])
    }

    /// A new registration challenge for the caller, with the passkeys they hold.
    /// - Throws: `409 passkey_limit_reached` when they hold ``PasskeyCeremonies/maximumPerAccount``.
    package func startRegistration(by caller: SignedInCaller) async throws -> RegistrationStart {
        let (userID, now) = (caller.userID, caller.now)
        let (challenge, record) = services.passkeys.newChallenge(.registration, userID: userID, now: now)
        let held = try await services.store.write { tx -> [PasskeyRecord]? in
            let held = try tx.passkeys(userID: userID)
            guard held.count < PasskeyCeremonies.maximumPerAccount else { return nil }
            try tx.deleteWebAuthnChallenges(expiredBefore: now)
            try tx.insertWebAuthnChallenge(record)
            return held
        }
        guard let held else { throw Self.tooManyPasskeys }
        return .started(challenge: challenge, held: held)
    }

    /// What asking for a reauthentication challenge came to.
    package enum ReauthenticationStart: Sendable {
        /// A new challenge for this session is stored; `held` are the caller's passkeys, to allow.
        case started(challenge: [UInt8], held: [PasskeyRecord])
        /// The account has no passkey to prove itself with.
        case noPasskeys
    }

    /// A new reauthentication challenge for the caller's session (``PasskeyReauthentication``),
    /// stored only when the account holds a passkey.
    package func reauthenticationChallenge(for caller: SignedInCaller) async throws -> ReauthenticationStart {
        let (userID, sessionID, now) = (caller.userID, caller.sessionID, caller.now)
        let bytes = services.random.bytes(32)
        let record = WebAuthnChallengeRecord(
            hash: PasskeyReauthentication.challengeHash(bytes, sessionID: sessionID), purpose: .reauthentication, userID: userID,
            expiresAt: now.addingTimeInterval(PasskeyCeremonies.challengeLifetime))
        let held = try await services.store.write { tx -> [PasskeyRecord] in
            let held = try tx.passkeys(userID: userID)
            guard !held.isEmpty else { return [] }
            try tx.deleteWebAuthnChallenges(expiredBefore: now)
            try tx.insertWebAuthnChallenge(record)
            return held
        }
        return held.isEmpty ? .noPasskeys : .started(challenge: bytes, held: held)
    }

    /// What registering a passkey came to.
    package enum RegistrationOutcome: Sendable {
        /// The passkey is the account's; the owner is mailed a notice.
        case added(PasskeyRecord)
    }

    /// Registers the credential of `request`, made by `create()` for a registration challenge,
    /// with its device name, under the step-up proof of what the account had before (a passkey
    /// never proves its own addition).
    ///
    /// The fields are checked first, then the credential (a refused one spends its challenge and
    /// asks for no proof), then the proof, then the challenge is spent with the new passkey in one
    /// transaction.
    package func register(_ request: PasskeyRegisterRequest, by caller: SignedInCaller) async throws -> RegistrationOutcome {
        var errors = FieldErrors()
        let name = PasskeyCeremonies.deviceName(request.name, into: &errors)
        if request.credential == nil { errors.add(.required, to: "credential") }
        let stepUp = try await services.stepUp(request.proof, for: .addPasskey, caller, into: &errors)
        guard errors.isEmpty, let name, let credential = request.credential, let stepUp else { throw APIError.validation(errors) }
        let (user, now, ceremonies) = (caller.user, caller.now, services.passkeys)

        let (verified, challengeHash) = try await verifyRegistration(credential, by: caller)
        let accepted = try await services.check(stepUp, caller)
        let transports = (credential.response.transports ?? []).filter { $0.count <= 32 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") } }
        let passkey = PasskeyRecord(
            id: services.random.uuid(), credentialID: verified.credentialID, userID: user.id, name: name, publicKey: verified.publicKey.encoded,
            algorithm: verified.publicKey.algorithm.rawValue, signCount: Int64(verified.signCount), backupEligible: verified.backupEligible,
            backedUp: verified.backedUp, aaguid: verified.aaguid, transports: Array(transports.prefix(8)), createdAt: now)
        let stored = try await services.write(after: accepted, caller) { tx, ledger -> Registration in
            switch try ceremonies.take(challengeHash, .registration, userID: user.id, now: now, in: tx) {
            case .unknown: return .challengeUnknown
            case .expired: return .challengeExpired
            case .taken: break
            }
            // Locked, so an account deleted meanwhile gets no passkey row (and no 500 from its key).
            guard try tx.lockUser(id: user.id) != nil else { throw APIError.sessionRevoked }
            guard try tx.insertPasskey(passkey) else { return .exists }
            let added = caller.event(
                .changed(.passkeyAdded, ["name": name], logged: .passkeyAdded),
                ["passkey_id": passkey.id.lowercasedText, "attestation": verified.attestationFormat])
            try services.recordChange(.passkeyAdded(name: name), added, of: caller.user, caller, in: &ledger)
            return .added
        }
        switch stored {
        case .added: break
        case .challengeUnknown: throw APIError.challengeInvalid
        case .challengeExpired: throw APIError.challengeExpired
        case .exists:
            services.events.record(caller.event(.logged(.passkeyRefused), ["via": "passkey_register", "reason": "credential_exists"]))
            throw APIError.passkeyExists
        }
        return .added(passkey)
    }

    /// What the registering transaction found.
    private enum Registration: Sendable { case added, exists, challengeUnknown, challengeExpired }

    /// Checks a registration credential against the challenge it names (WebAuthn §7.1), without
    /// spending the challenge; returns what it registers and the challenge's stored hash. A
    /// refused credential spends its challenge (whoever holds it gets no second try) and is
    /// `400 passkey_invalid`, logged as `passkey_refused` with the check.
    private func verifyRegistration(
        _ credential: PasskeyRegistrationCredential, by caller: SignedInCaller
    ) async throws -> (VerifiedRegistration, challengeHash: [UInt8]) {
        let (ceremonies, userID, now) = (services.passkeys, caller.userID, caller.now)
        var challengeHash: [UInt8]?
        do {
            let rawID = try PasskeyCeremonies.bytes(credential.rawId, limit: AuthenticatorData.maximumCredentialIDLength)
            guard credential.type == "public-key", credential.id == credential.rawId else { throw PasskeyRefusal.malformed }
            let clientDataJSON = try PasskeyCeremonies.bytes(credential.response.clientDataJSON, limit: CollectedClientData.maximumSize)
            let attestationObject = try PasskeyCeremonies.bytes(credential.response.attestationObject, limit: 16 * 1024)
            let clientData: CollectedClientData
            do throws(WebAuthnError) { clientData = try CollectedClientData(json: clientDataJSON) } catch { throw PasskeyRefusal.check(error) }
            let hash = Digest.sha256(clientData.challenge)
            challengeHash = hash
            do throws(WebAuthnError) {
                let verified = try ceremonies.party.verifyRegistration(
                    clientDataJSON: clientDataJSON, attestationObject: attestationObject, rawID: rawID, expectedChallenge: clientData.challenge)
                return (verified, hash)
            } catch { throw PasskeyRefusal.check(error) }
        } catch let refusal as PasskeyRefusal {
            if let challengeHash {
                _ = try await services.store.write { try ceremonies.take(challengeHash, .registration, userID: userID, now: now, in: $0) }
            }
            services.events.record(caller.event(.logged(.passkeyRefused), ["via": "passkey_register", "reason": refusal.reason]))
            throw APIError.passkeyInvalid
        }
    }

    /// The caller's passkeys, oldest first.
    package func passkeys(of caller: SignedInCaller) async throws -> [PasskeyRecord] {
        let userID = caller.userID
        return try await services.store.read { try $0.passkeys(userID: userID) }
    }

    /// What removing a passkey came to.
    package enum RemovalOutcome: Sendable, Equatable {
        /// The passkey is gone; the owner is mailed a notice.
        case removed
        /// The caller holds no passkey `id` (anyone else's is not told apart): before the proof
        /// is read, or gone by the time the change commits.
        case notFound
    }

    /// With the step-up `proof`, removes the caller's passkey `id`.
    package func remove(_ id: UUID, proof: StepUpProof, by caller: SignedInCaller) async throws -> RemovalOutcome {
        let userID = caller.userID
        guard try await passkeys(of: caller).contains(where: { $0.id == id }) else { return .notFound }
        let accepted = try await services.accepted(proof, for: .removePasskey, caller)
        let deleted = try await services.write(after: accepted, caller) { tx, ledger -> Bool in
            guard let passkey = try tx.passkeys(userID: userID).first(where: { $0.id == id }), try tx.deletePasskey(id: id, userID: userID) else {
                return false
            }
            let removed = caller.event(.changed(.passkeyRemoved, ["name": passkey.name], logged: .passkeyRemoved), ["passkey_id": id.lowercasedText])
            try services.recordChange(.passkeyRemoved(name: passkey.name), removed, of: caller.user, caller, in: &ledger)
            return true
        }
        guard deleted else { return .notFound }
        return .removed
    }

    private static let tooManyPasskeys = APIError(409, .passkeyLimitReached)
}
