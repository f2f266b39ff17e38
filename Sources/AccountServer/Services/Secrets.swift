import AccountStore
import Sodium

/// Server-wide secret keys, made on first start and kept in the database (shared by all servers).
struct Secrets: Sendable {
    /// Keys the HMAC of one-time codes, so a copy of the database does not give the codes away.
    let codeKey: [UInt8]
    /// Derives the successor of a refresh token, so a repeat within the grace window can be
    /// answered with the same new token without ever storing a token in clear.
    let refreshKey: [UInt8]

    static func load(from store: any AccountStore) async throws -> Secrets {
        try await store.write { tx in
            Secrets(
                codeKey: try tx.insertSettingIfAbsent("code_hmac_key", value: SecureRandom.bytes(count: 32)),
                refreshKey: try tx.insertSettingIfAbsent("refresh_derivation_key", value: SecureRandom.bytes(count: 32)))
        }
    }
}
