import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer
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
        switch try await operations.startRegistration(by: context.caller) {
        case .started(let challenge, let held):
            let (ceremonies, user) = (services.passkeys, context.user)
            return try .json(PasskeyCreationOptions(
                rp: PasskeyRelyingParty(id: ceremonies.party.id, name: ceremonies.name),
                user: PasskeyUserEntity(
                    id: Base64URL.encode(PasskeyCeremonies.userHandle(user.id)), name: user.email, displayName: user.username),
                challenge: challenge, pubKeyCredParams: PasskeyCeremonies.algorithms.map { PasskeyCredentialParameters(alg: $0.rawValue) },
                timeout: Int(PasskeyCeremonies.challengeLifetime * 1000),
                excludeCredentials: held.map { PasskeyCredentialDescriptor(id: Base64URL.encode($0.credentialID), transports: $0.transports) }))
        }
    }

    /// `POST /auth/passkeys/register`: the credential `create()` made for the options' challenge,
    /// a device name and the step-up proof of what the account had before (a passkey never proves
    /// its own addition); `201` with the passkey. The owner is mailed a notice.
    func registerPasskey(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(PasskeyRegisterRequest.self)
        switch try await operations.register(body, by: context.caller) {
        case .added(let passkey): return try .json(PasskeyCeremonies.wire(passkey), status: 201)
        }
    }

    /// `GET /auth/passkeys`: the caller's passkeys, oldest first.
    func listPasskeys(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        try await .json(PasskeyList(passkeys: operations.passkeys(of: context.caller).map(PasskeyCeremonies.wire)))
    }

    /// `DELETE /auth/passkeys/{id}`: with the step-up proof, removes one of the caller's passkeys;
    /// anyone else's is 404. The owner is mailed.
    func deletePasskey(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        let body = try context.base.decodeBody(PasskeyDeleteRequest.self)
        switch try await operations.remove(id, proof: body, by: context.caller) {
        case .removed: return .noContent
        case .notFound: throw APIError.notFound
        }
    }

    /// `GET /.well-known/apple-app-site-association`: the `webcredentials` apps of `--apple-app-id`,
    /// so an iOS app with the associated domain `webcredentials:<domain>` may use this RP's passkeys.
    func showAssociation(_ context: RequestContext) async throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"], body: association)
    }

    /// `POST /auth/passkeys/reauth/options` (signed in): `PublicKeyCredentialRequestOptionsJSON`
    /// with a new challenge for this session and the caller's passkeys as `allowCredentials`;
    /// `404 not_found` when the account has none.
    func reauthenticationOptions(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        switch try await operations.reauthenticationChallenge(for: context.caller) {
        case .noPasskeys: throw APIError.notFound
        case .started(let challenge, let held):
            return try .json(PasskeyRequestOptions(
                challenge: Base64URL.encode(challenge), timeout: Int(PasskeyCeremonies.challengeLifetime * 1000),
                rpId: services.passkeys.party.id,
                allowCredentials: held.map { PasskeyCredentialDescriptor(id: Base64URL.encode($0.credentialID), transports: $0.transports) }))
        }
    }

    private var operations: PasskeyOperations { services.passkeyOperations }
}
