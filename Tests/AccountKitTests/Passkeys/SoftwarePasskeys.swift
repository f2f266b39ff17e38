import AccountAPI
import Foundation
import Synchronization
import TestSupport
@testable import AccountKit

/// A phone's passkeys for these tests: TestSupport's ``SoftwareAuthenticator`` (a real WebAuthn
/// authenticator: P-256 keys, authenticator data, signatures) behind AccountKit's seam, with the
/// SDK's own conversions between the JSON forms and the bytes, as the Apple authorizer runs them.
final class SoftwarePasskeys: Sendable {
    /// The relying party of the test servers: `example.com`, and an app of it (its origin).
    static let rpID = "example.com"
    static let origin = "https://example.com"
    /// The server options that make it that relying party.
    static let serverOptions = ["--webauthn-rp-id", rpID, "--webauthn-origin", origin]

    /// The passkeys made so far, oldest first (signing moves their counters).
    private let held = Mutex<[SoftwareAuthenticator]>([])
    /// Which passkey the person picks at login: an index into ``held``; the newest by default.
    private let pick = Mutex<Int?>(nil)

    /// How many passkeys this device holds.
    var count: Int { held.withLock { $0.count } }

    /// The person picks the passkey made `index`-th (0: the first) at the next logins.
    func choose(_ index: Int) { pick.withLock { $0 = index } }

    /// The device's two ceremonies.
    var authorizer: PasskeyAuthorizer {
        PasskeyAuthorizer(
            register: { [self] options in
                let ceremony = try options.ceremony()
                let passkey = SoftwareAuthenticator(userHandle: Array(ceremony.userID))
                let made = passkey.register(challenge: Array(ceremony.challenge), Self.ceremony(ceremony.relyingPartyID))
                held.withLock { $0.append(passkey) }
                return PasskeyRegistrationCredential(
                    credentialID: Data(made.rawID), clientDataJSON: Data(made.clientDataJSON),
                    attestationObject: Data(made.attestationObject), transports: ["hybrid", "internal"])
            },
            assert: { [self] options in
                let ceremony = try options.ceremony()
                let signed = try held.withLock { keys -> SoftwareAuthenticator.Assertion in
                    guard !keys.isEmpty else { throw AuthorizationError.noCredential }
                    let index = pick.withLock { $0 } ?? keys.count - 1
                    return keys[index].assert(challenge: Array(ceremony.challenge), Self.ceremony(ceremony.relyingPartyID))
                }
                return PasskeyAssertionCredential(
                    credentialID: Data(signed.rawID), clientDataJSON: Data(signed.clientDataJSON),
                    authenticatorData: Data(signed.authenticatorData), signature: Data(signed.signature), userHandle: Data(signed.userHandle))
            })
    }

    /// A ceremony in this app, on the server's origin.
    private static func ceremony(_ rpID: String) -> SoftwareAuthenticator.Ceremony {
        SoftwareAuthenticator.Ceremony(rpID: rpID, origin: origin)
    }

    /// A device whose sheet the person closes (or whose system fails with `error`).
    static func refusing(_ error: any Error = AuthorizationError.cancelled) -> PasskeyAuthorizer {
        PasskeyAuthorizer(register: { _ in throw error }, assert: { _ in throw error })
    }
}
