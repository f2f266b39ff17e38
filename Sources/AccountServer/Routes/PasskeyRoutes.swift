import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Sodium
import WebAuthn

/// Passkeys (WebAuthn Level 3): `POST /auth/passkeys/register/options` and `/auth/passkeys/register`
/// (signed in), `POST /auth/passkeys/login/options` and `/auth/passkeys/login` (no account needed:
/// the passkey names it), `GET /auth/passkeys`, `DELETE /auth/passkeys/{id}`, and
/// `GET /.well-known/apple-app-site-association` for iOS apps.
///
/// Every challenge is single use on every server (stored, taken in one statement), lives 5
/// minutes, and is bound to its ceremony (and, to register, to the account); every refusal is a
/// `passkey_refused` event naming the check, and the reply says only `passkey_invalid`.
struct PasskeyRoutes: RouteGroup {
    let services: Services
    /// The association file, encoded once: it only changes with the configuration.
    let association: [UInt8]

    init(services: Services) {
        self.services = services
        association = Array(#"{"webcredentials":{"apps":["#.utf8)
            + Array(services.configuration.appleAppIDs.map { "\"\($0)\"" }.joined(separator: ",").utf8) + Array("]}}".utf8)
    }

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.passkeyRegistrationOptions, in: sets.signedIn, registrationOptions)
        router.add(.registerPasskey, in: sets.signedIn, registerPasskey)
        router.add(.passkeyLoginOptions, in: sets.account, loginOptions)
        router.add(.logInWithPasskey, in: sets.signIn, logIn)
        router.add(.passkeyReauthenticationOptions, in: sets.signedIn, reauthenticationOptions)
        router.add(.listPasskeys, in: sets.signedIn, listPasskeys)
        router.add(.deletePasskey, in: sets.signedIn, deletePasskey)
        router.add(.appleAppSiteAssociation, in: sets.open, showAssociation)
    }

    /// `POST /auth/passkeys/register/options`: `PublicKeyCredentialCreationOptionsJSON` for the
    /// caller, with a new challenge and the passkeys they hold as `excludeCredentials`.
    func registrationOptions(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let ceremonies = services.passkeys
        let (user, now) = (context.user, context.now)
        let (challenge, record) = ceremonies.newChallenge(.registration, userID: user.id, now: now)
        let held = try await services.store.write { tx -> [PasskeyRecord]? in
            let held = try tx.passkeys(userID: user.id)
            guard held.count < PasskeyCeremonies.maximumPerAccount else { return nil }
            try tx.deleteWebAuthnChallenges(expiredBefore: now)
            try tx.insertWebAuthnChallenge(record)
            return held
        }
        guard let held else { throw Self.tooManyPasskeys }
        return try .json(PasskeyCreationOptions(
            rp: PasskeyRelyingParty(id: ceremonies.party.id, name: ceremonies.name),
            user: PasskeyUserEntity(
                id: Base64URL.encode(PasskeyCeremonies.userHandle(user.id)), name: user.email, displayName: user.username),
            challenge: challenge, pubKeyCredParams: PasskeyCeremonies.algorithms.map { PasskeyCredentialParameters(alg: $0.rawValue) },
            timeout: Int(PasskeyCeremonies.challengeLifetime * 1000),
            excludeCredentials: held.map { PasskeyCredentialDescriptor(id: Base64URL.encode($0.credentialID), transports: $0.transports) }))
    }

    /// `POST /auth/passkeys/register`: the credential `create()` made for the options' challenge,
    /// a device name and the step-up proof of what the account had before (a passkey never proves
    /// its own addition); `201` with the passkey. The owner is mailed a notice.
    ///
    /// The credential is checked first (a refused one spends its challenge and asks for no proof),
    /// then the proof, then the challenge is spent with the new passkey in one transaction.
    func registerPasskey(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(PasskeyRegisterRequest.self)
        var errors = FieldErrors()
        let name = PasskeyCeremonies.deviceName(body.name, into: &errors)
        if body.credential == nil { errors.add(.required, to: "credential") }
        let stepUp = try await services.stepUp(body.proof, for: .addPasskey, context.caller, into: &errors)
        guard errors.isEmpty, let name, let credential = body.credential, let stepUp else { throw APIError.validation(errors) }
        let (services, user, now) = (self.services, context.user, context.now)
        let ceremonies = services.passkeys

        let (verified, challengeHash) = try await verifyRegistration(credential, context)
        let accepted = try await services.check(stepUp, context.caller)
        let transports = (credential.response.transports ?? []).filter { $0.count <= 32 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") } }
        let passkey = PasskeyRecord(
            id: UUID.random(), credentialID: verified.credentialID, userID: user.id, name: name, publicKey: verified.publicKey.encoded,
            algorithm: verified.publicKey.algorithm.rawValue, signCount: Int64(verified.signCount), backupEligible: verified.backupEligible,
            backedUp: verified.backedUp, aaguid: verified.aaguid, transports: Array(transports.prefix(8)), createdAt: now)
        enum Outcome: Sendable { case added, exists, challengeUnknown, challengeExpired }
        let outcome = try await services.write(after: accepted, context.caller) { tx -> Outcome in
            switch try ceremonies.take(challengeHash, .registration, userID: user.id, now: now, in: tx) {
            case .unknown: return .challengeUnknown
            case .expired: return .challengeExpired
            case .taken: break
            }
            // Locked, so an account deleted meanwhile gets no passkey row (and no 500 from its key).
            guard try tx.lockUser(id: user.id) != nil else { throw APIError.sessionRevoked }
            guard try tx.insertPasskey(passkey) else { return .exists }
            try services.recordChange(.passkeyAdded(name: name), .passkeyAdded, ["name": name], of: user, context.caller, in: tx)
            return .added
        }
        switch outcome {
        case .added: break
        case .challengeUnknown: throw APIError.challengeInvalid
        case .challengeExpired: throw APIError.challengeExpired
        case .exists:
            context.audit(.passkeyRefused, ["via": "passkey_register", "reason": "credential_exists"])
            throw APIError.passkeyExists
        }
        context.audit(.passkeyAdded, ["passkey_id": passkey.id.lowercasedText, "attestation": verified.attestationFormat])
        return try .json(PasskeyCeremonies.wire(passkey), status: 201)
    }

    /// Checks a registration credential against the challenge it names (WebAuthn §7.1), without
    /// spending the challenge; returns what it registers and the challenge's stored hash. A
    /// refused credential spends its challenge (whoever holds it gets no second try) and is
    /// `400 passkey_invalid`, logged as `passkey_refused` with the check.
    private func verifyRegistration(
        _ credential: PasskeyRegistrationCredential, _ context: AuthenticatedContext
    ) async throws -> (VerifiedRegistration, challengeHash: [UInt8]) {
        let (ceremonies, userID, now) = (services.passkeys, context.userID, context.now)
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
            context.audit(.passkeyRefused, ["via": "passkey_register", "reason": refusal.reason])
            throw APIError.passkeyInvalid
        }
    }

    /// `GET /auth/passkeys`: the caller's passkeys, oldest first.
    func listPasskeys(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let userID = context.userID
        let passkeys = try await services.store.read { try $0.passkeys(userID: userID) }
        return try .json(PasskeyList(passkeys: passkeys.map(PasskeyCeremonies.wire)))
    }

    /// `DELETE /auth/passkeys/{id}`: with the step-up proof, removes one of the caller's passkeys;
    /// anyone else's is 404. The owner is mailed.
    func deletePasskey(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        let body = try context.base.decodeBody(PasskeyDeleteRequest.self)
        let (services, user) = (self.services, context.user)
        guard try await services.store.read({ try $0.passkeys(userID: user.id) }).contains(where: { $0.id == id }) else {
            throw APIError.notFound
        }
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .removePasskey, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        let accepted = try await services.check(stepUp, context.caller)
        let deleted = try await services.write(after: accepted, context.caller) { tx -> Bool in
            guard let passkey = try tx.passkeys(userID: user.id).first(where: { $0.id == id }), try tx.deletePasskey(id: id, userID: user.id) else {
                return false
            }
            try services.recordChange(.passkeyRemoved(name: passkey.name), .passkeyRemoved, ["name": passkey.name], of: user, context.caller, in: tx)
            return true
        }
        guard deleted else { throw APIError.notFound }
        context.audit(.passkeyRemoved, ["passkey_id": id.lowercasedText])
        return .noContent
    }

    /// `GET /.well-known/apple-app-site-association`: the `webcredentials` apps of `--apple-app-id`,
    /// so an iOS app with the associated domain `webcredentials:<domain>` may use this RP's passkeys.
    func showAssociation(_ context: RequestContext) async throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"], body: association)
    }

    private static let tooManyPasskeys = APIError(409, .passkeyLimitReached)
}
