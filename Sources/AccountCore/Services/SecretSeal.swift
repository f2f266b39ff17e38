import AccountStore
import Foundation
import Sodium

/// How the server's secrets (signing seeds, HMAC keys: everything in `settings`; and the text of
/// mail waiting in the outbox, which holds live codes) are kept in the database: in clear, or
/// sealed with the key of `--secret-key-file`.
///
/// A sealed value is `sbx1`, then a `crypto_secretbox` (XSalsa20-Poly1305, random nonce) under a
/// key derived from the file's key for that value alone (`setting:<name>`, `signing-key:<kid>`,
/// `outbox-subject:<id>`, `outbox-body:<id>`), so a value moved to another row does not open;
/// a text column holds it as `sbx1:` and the base64 of the box (``seal(text:context:)``). A
/// sealed database holds a check value in `settings` (`secret_key_check`: the key's fingerprint
/// and a box of it), which is how a database tells which key it needs: another key, or none, is
/// refused before anything is read.
package struct SecretSeal: Sendable {
    /// The file's key; `nil` keeps secrets in clear.
    package let key: SecretBoxKey?

    package static let clear = SecretSeal(key: nil)
    /// The setting that marks a sealed database and names its key.
    package static let checkSetting = "secret_key_check"
    /// How a sealed value begins (the version of its form).
    package static let sealedPrefix = Array("sbx1".utf8)
    private static let checkPrefix = Array("skc1".utf8)

    /// What ``adopt(in:)`` found or did.
    package enum Adoption: Equatable, Sendable {
        case clear
        case sealed
        /// A clear database sealed just now: how many settings, signing keys and waiting messages.
        case sealedNow(settings: Int, signingKeys: Int, mail: Int)
    }

    /// The seal `--secret-key-file` asks for, warning (one log line) when the file is open to
    /// other users.
    package static func configured(keyFile: String?) throws -> SecretSeal {
        guard let keyFile else { return .clear }
        let (key, looseMode) = try SecretKeyFile.read(keyFile)
        if let looseMode {
            Log.notice("secret_key_file_permissions", [
                "path": keyFile, "mode": String(looseMode, radix: 8),
                "advice": "other users may read the key that seals the database's secrets: chmod 600 it",
            ])
        }
        return SecretSeal(key: key)
    }

    /// A short public name of the key (16 hex digits, keyed BLAKE2b), which tells keys apart
    /// without saying anything about them.
    package var fingerprint: String? { key.map(Self.fingerprint(of:)) }

    package static func fingerprint(of key: SecretBoxKey) -> String { Hex.encode(Array(fingerprintBytes(of: key))) }

    private static func fingerprintBytes(of key: SecretBoxKey) -> [UInt8] {
        Array(key.derived(context: "account-server secret key fingerprint").bytes.prefix(8))
    }

    // MARK: One value

    /// What a setting's value is sealed for: it opens in that row only.
    package static func context(setting name: String) -> String { "setting:" + name }
    /// What a signing key's seed is sealed for.
    package static func context(signingKey kid: String) -> String { "signing-key:" + kid }

    /// `value` as stored: sealed for `context` with the key, or as it is without one.
    package func seal(_ value: [UInt8], context: String) -> [UInt8] {
        guard let key else { return value }
        return Self.sealedPrefix + SecretBox.seal(value, key: key.derived(context: "account-server seal " + context))
    }

    /// The value `stored` holds for `context`.
    /// - Throws: ``SecretsError/cannotOpen(_:)`` when a sealed value does not open (altered, moved
    ///   from another row, or not sealed at all).
    func open(_ stored: [UInt8], context: String) throws -> [UInt8] {
        guard let key else { return stored }
        guard stored.starts(with: Self.sealedPrefix),
            let value = SecretBox.open(Array(stored.dropFirst(Self.sealedPrefix.count)), key: key.derived(context: "account-server seal " + context))
        else { throw SecretsError.cannotOpen(context) }
        return value
    }

    // MARK: The whole database

    /// Checks this seal against the database inside `tx`: a sealed database needs this very key;
    /// a clear one given a key has all its secrets sealed now (same transaction).
    /// - Throws: ``SecretsError`` for a key the database was not sealed with, or none.
    package func adopt(in tx: any StoreTransaction) throws -> Adoption {
        let check = try tx.setting(Self.checkSetting)
        guard let key else {
            guard let check else { return .clear }
            throw SecretsError.sealedWithoutKey(database: Self.checkFingerprint(check))
        }
        if let check {
            try verify(check, key: key)
            return .sealed
        }
        // The check goes in first: a second server sealing at the same moment waits on this row
        // and then finds it (PostgreSQL), or runs after this transaction (SQLite).
        let ours = makeCheck(key: key)
        let stored = try tx.insertSettingIfAbsent(Self.checkSetting, value: ours)
        guard stored == ours else {
            try verify(stored, key: key)
            return .sealed
        }
        let (settings, keys) = try rewriteSecrets(in: tx) { value, context in seal(value, context: context) }
        return .sealedNow(settings: settings, signingKeys: keys, mail: try sealWaitingMail(in: tx))
    }

    /// Puts every secret of a database sealed with this key back in clear, waiting mail included,
    /// and removes the check (`account-server keys unseal`); returns how many settings, signing
    /// keys and messages, and how many messages did not open and were removed
    /// (``unsealWaitingMail(in:)``).
    package func unseal(in tx: any StoreTransaction) throws -> (settings: Int, signingKeys: Int, mail: Int, unopenedMail: Int) {
        guard let key else { throw SecretsError.unsealNeedsKey }
        guard let check = try tx.setting(Self.checkSetting) else { throw SecretsError.notSealed }
        try verify(check, key: key)
        let (settings, keys) = try rewriteSecrets(in: tx) { value, context in try open(value, context: context) }
        let (mail, unopened) = try unsealWaitingMail(in: tx)
        try tx.deleteSetting(Self.checkSetting)
        return (settings, keys, mail, unopened)
    }

    /// Replaces every setting but the check, and every signing seed, with `rewrite` of it;
    /// returns how many of each.
    private func rewriteSecrets(
        in tx: any StoreTransaction, _ rewrite: ([UInt8], String) throws -> [UInt8]
    ) throws -> (settings: Int, signingKeys: Int) {
        var settings = 0
        for name in try tx.settingNames() where name != Self.checkSetting {
            guard let value = try tx.setting(name) else { continue }
            try tx.replaceSetting(name, value: rewrite(value, Self.context(setting: name)))
            settings += 1
        }
        let keys = try tx.signingKeys()
        for record in keys {
            try tx.replaceSigningKeySeed(kid: record.kid, seed: rewrite(record.seed, Self.context(signingKey: record.kid)))
        }
        return (settings, keys.count)
    }

    /// `skc1`, the key's fingerprint, and a box of the fingerprint that only this key opens.
    private func makeCheck(key: SecretBoxKey) -> [UInt8] {
        let fingerprint = Self.fingerprintBytes(of: key)
        return Self.checkPrefix + fingerprint + seal(fingerprint, context: Self.checkSetting)
    }

    private func verify(_ check: [UInt8], key: SecretBoxKey) throws {
        let fingerprint = Self.fingerprintBytes(of: key)
        let stored = Self.checkFingerprint(check)
        guard stored == Hex.encode(fingerprint) else {
            throw SecretsError.sealedWithAnotherKey(database: stored, given: Hex.encode(fingerprint))
        }
        let box = Array(check.dropFirst(Self.checkPrefix.count + fingerprint.count))
        guard (try? open(box, context: Self.checkSetting)) == fingerprint else { throw SecretsError.cannotOpen(Self.checkSetting) }
    }

    /// The fingerprint a check value names, or `unknown` when it is not one.
    private static func checkFingerprint(_ check: [UInt8]) -> String {
        guard check.count >= checkPrefix.count + 8, check.starts(with: checkPrefix) else { return "unknown" }
        return Hex.encode(Array(check.dropFirst(checkPrefix.count).prefix(8)))
    }
}

/// Why the server's secrets cannot be read or sealed; each says what to do.
package enum SecretsError: Error, Equatable, CustomStringConvertible {
    case keyFileUnreadable(path: String, reason: String)
    case keyFileMalformed(path: String, size: Int)
    case keyFileNotRandom(path: String)
    case keyFileExists(path: String)
    case keyFileUnwritable(path: String, reason: String)
    case sealedWithoutKey(database: String)
    case sealedWithAnotherKey(database: String, given: String)
    case cannotOpen(String)
    case notSealed
    case unsealNeedsKey

    package var description: String {
        switch self {
        case .keyFileUnreadable(let path, let reason):
            "cannot read the secret key file \(path): \(reason)"
        case .keyFileMalformed(let path, let size):
            "the secret key file \(path) must hold 32 random bytes, as raw bytes, 64 hex digits or base64 "
                + "(found \(size) bytes); make one with: account-server keys generate-secret-key PATH"
        case .keyFileNotRandom(let path):
            "the secret key file \(path) holds 32 equal bytes, not a random key; make one with: account-server keys generate-secret-key PATH"
        case .keyFileExists(let path):
            "\(path) already exists; a key file is never overwritten (the database sealed with it would be lost)"
        case .keyFileUnwritable(let path, let reason):
            "cannot write the secret key file \(path): \(reason)"
        case .sealedWithoutKey(let database):
            "the database's secrets are sealed with secret key \(database); start with --secret-key-file "
                + "(or ACCOUNT_SECRET_KEY_FILE) naming the file of that key"
        case .sealedWithAnotherKey(let database, let given):
            "the database's secrets are sealed with secret key \(database), but the secret key file holds key \(given); "
                + "give the key file the database was sealed with"
        case .cannotOpen(let context):
            "a sealed secret in the database (\(context)) does not open with the secret key: it was altered or copied from another database"
        case .notSealed:
            "the database's secrets are not sealed; there is nothing to unseal"
        case .unsealNeedsKey:
            "keys unseal needs --secret-key-file naming the key the database is sealed with"
        }
    }
}
