import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebFetch

/// Apple's grants: the refresh token an authorization code is exchanged for (kept sealed, a key
/// per Apple user), and its revocation when the account is deleted or Apple is unlinked, through
/// the outbox so a failure is retried with back-off.
///
/// Without `--apple-key-file` there is no client secret: codes are not exchanged (each skip is
/// logged), and a revocation is still queued but left in the outbox for a server that has the key.
package struct AppleGrants: OutboxDelivery {
    package let fetcher: WebFetcher
    package let tokenURL: String
    package let revokeURL: String
    /// `nil` without `--apple-key-file`.
    package let secret: AppleClientSecret?
    package let sealKey: SecretBoxKey
    package let clock: ServerClock
    /// Where the revocations' outbox ids are drawn from.
    package let random: Randomness

    // MARK: Sealing

    /// `token` sealed for the row of Apple user `subject` (identity or continuation).
    package func seal(_ token: String, subject: String) -> [UInt8] {
        SecretBox.seal(Array(token.utf8), key: sealKey.derived(context: "apple-refresh-token:" + subject))
    }

    func open(_ sealed: [UInt8], subject: String) -> String? {
        SecretBox.open(sealed, key: sealKey.derived(context: "apple-refresh-token:" + subject)).flatMap { String(bytes: $0, encoding: .utf8) }
    }

    // MARK: Exchanging a code

    /// Apple's refresh token for `code`, sealed for `subject`; `nil` (logged) when there is no
    /// client secret, no code, or Apple refused or could not be reached: the login goes on, but
    /// the grant cannot be revoked later.
    package func exchange(code: String?, clientID: String, subject: String) async -> [UInt8]? {
        guard let code, !code.isEmpty else { return nil }
        guard let secret else {
            Log.event("apple_code_not_exchanged", ["reason": "no_apple_key"])
            return nil
        }
        guard code.utf8.count <= 1024 else {
            Log.event("apple_code_not_exchanged", ["reason": "code_too_long"])
            return nil
        }
        let form = [
            ("client_id", clientID), ("client_secret", secret.make(clientID: clientID, now: clock.now())),
            ("code", code), ("grant_type", "authorization_code"),
        ]
        do {
            let reply = try await fetcher.fetch(WebRequest(url: tokenURL, form: form, maximumBodySize: 16 * 1024, timeout: 5))
            struct Tokens: Decodable { let refresh_token: String? }
            guard reply.status == 200, let token = try? JSONDecoder().decode(Tokens.self, from: Data(reply.body)).refresh_token,
                !token.isEmpty, token.utf8.count <= 4096
            else {
                Log.event("apple_code_not_exchanged", ["reason": "http_\(reply.status)", "detail": Self.errorCode(reply.body)])
                return nil
            }
            return seal(token, subject: subject)
        } catch {
            Log.event("apple_code_not_exchanged", ["reason": "unreachable", "detail": String(describing: error)])
            return nil
        }
    }

    // MARK: Revoking

    /// The outbox row that revokes `identity`'s grant, written in the caller's transaction (the
    /// account's deletion, or the unlinking); nothing (logged) only when no refresh token was kept.
    /// It is queued whether or not this process has the Apple key: any server on the database
    /// that has it sends it (`admin users delete` on the command line has none).
    package func queueRevocation(of sealed: [UInt8]?, subject: String, clientID: String, in tx: any StoreTransaction, now: Date) throws {
        guard let sealed, let token = open(sealed, subject: subject) else {
            Log.event("apple_revoke_skipped", ["reason": "no_refresh_token"])
            return
        }
        let id = random.uuid()
        let body = Data(SecretBox.seal(Array(token.utf8), key: revocationKey(id))).base64EncodedString()
        try tx.enqueueMail(OutboxMessage(
            id: id, recipient: clientID, subject: "", body: body, createdAt: now, nextAttemptAt: now, kind: .appleRevocation))
    }

    /// Posts the revocation to Apple. `200` (revoked) and `400 invalid_grant` (nothing left to
    /// revoke) end it; anything else is thrown, so the dispatcher tries again later. Without the
    /// Apple key it is thrown too (logged as `apple_revoke_deferred`): the row stays for a server
    /// that has the key, rather than being dropped.
    package func deliver(_ message: OutboxMessage) async throws {
        guard let secret else {
            Log.event("apple_revoke_deferred", ["reason": "no_apple_key"])
            throw AppleConfigurationError(description: "no --apple-key-file on this server: the revocation waits for one that has it")
        }
        guard let box = Data(base64Encoded: message.body), let opened = SecretBox.open([UInt8](box), key: revocationKey(message.id)),
            let token = String(bytes: opened, encoding: .utf8)
        else {
            Log.event("apple_revoke_skipped", ["reason": "does_not_open"])
            return
        }
        let form = [
            ("client_id", message.recipient), ("client_secret", secret.make(clientID: message.recipient, now: clock.now())),
            ("token", token), ("token_type_hint", "refresh_token"),
        ]
        let reply = try await fetcher.fetch(WebRequest(url: revokeURL, form: form, maximumBodySize: 16 * 1024, timeout: 5))
        switch (reply.status, Self.errorCode(reply.body)) {
        case (200, _):
            Log.event("apple_grant_revoked", ["attempts": String(message.attempts + 1)])
        case (400, "invalid_grant"):
            Log.event("apple_revoke_skipped", ["reason": "invalid_grant"])
        case (let status, let code):
            throw WebFetchError(description: "Apple's revoke endpoint answered \(status) \(code)")
        }
    }

    /// The key of one outbox row's token.
    private func revocationKey(_ id: UUID) -> SecretBoxKey {
        sealKey.derived(context: "apple-revocation:" + id.lowercasedText)
    }

    /// The `error` of an OAuth error reply (`invalid_grant`), for the log: a fixed word, never a token.
    private static func errorCode(_ body: [UInt8]) -> String {
        struct OAuthError: Decodable { let error: String }
        guard let code = try? JSONDecoder().decode(OAuthError.self, from: Data(body)).error,
            code.count <= 64, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") })
        else { return "" }
        return code
    }
}
