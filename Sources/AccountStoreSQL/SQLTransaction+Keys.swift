import AccountStore
import Foundation

/// Signing keys and server settings (secrets).
private enum KeySQL {
    static let all = SQLStatement(
        "SELECT kid, seed, public_key, created_at, retired_at FROM signing_keys ORDER BY created_at, kid")
    static let insert = SQLStatement(
        "INSERT INTO signing_keys (kid, seed, public_key, created_at, retired_at) VALUES (?, ?, ?, ?, ?)")
    static let retireOthers = SQLStatement("UPDATE signing_keys SET retired_at = ? WHERE kid <> ? AND retired_at IS NULL")
    static let replaceSeed = SQLStatement("UPDATE signing_keys SET seed = ? WHERE kid = ?")
}

private enum SettingSQL {
    static let value = SQLStatement("SELECT value FROM settings WHERE name = ?")
    static let names = SQLStatement("SELECT name FROM settings ORDER BY name")
    static let insertIfAbsent = SQLStatement("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")
    static let replace = SQLStatement(
        "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value")
    static let delete = SQLStatement("DELETE FROM settings WHERE name = ?")
}

extension SQLTransaction {
    public func signingKeys() throws -> [SigningKeyRecord] {
        try query(KeySQL.all, []) { row in
            SigningKeyRecord(
                kid: row.text(0), seed: try row.blob(1), publicKey: try row.blob(2), createdAt: row.date(3),
                retiredAt: row.optionalDate(4))
        }
    }

    public func insertSigningKey(_ key: SigningKeyRecord) throws {
        try execute(
            KeySQL.insert, [.text(key.kid), .blob(key.seed), .blob(key.publicKey), .date(key.createdAt), .date(key.retiredAt)])
    }

    public func retireSigningKeys(except kid: String, at date: Date) throws {
        try execute(KeySQL.retireOthers, [.date(date), .text(kid)])
    }

    @discardableResult
    public func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool {
        try execute(KeySQL.replaceSeed, [.blob(seed), .text(kid)]) > 0
    }

    public func setting(_ name: String) throws -> [UInt8]? {
        try first(SettingSQL.value, [.text(name)]) { try $0.blob(0) }
    }

    public func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8] {
        try execute(SettingSQL.insertIfAbsent, [.text(name), .blob(value)])
        guard let stored = try setting(name) else {
            throw StoreError.failure(reason: "setting vanished right after it was inserted")
        }
        return stored
    }

    public func settingNames() throws -> [String] {
        try query(SettingSQL.names, []) { $0.text(0) }
    }

    public func replaceSetting(_ name: String, value: [UInt8]) throws {
        try execute(SettingSQL.replace, [.text(name), .blob(value)])
    }

    @discardableResult
    public func deleteSetting(_ name: String) throws -> Bool {
        try execute(SettingSQL.delete, [.text(name)]) > 0
    }
}
