import Foundation
import AccountStore
import AccountStoreSQL

extension SQLiteTransaction {
    func signingKeys() throws -> [SigningKeyRecord] {
        try query(
            "SELECT kid, seed, public_key, created_at, retired_at FROM signing_keys ORDER BY created_at, kid", []
        ) { row in
            SigningKeyRecord(
                kid: row.text(0), seed: row.blob(1), publicKey: row.blob(2), createdAt: row.date(3),
                retiredAt: row.optionalDate(4))
        }
    }

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try execute(
            "INSERT INTO signing_keys (kid, seed, public_key, created_at, retired_at) VALUES (?, ?, ?, ?, ?)",
            [.text(key.kid), .blob(key.seed), .blob(key.publicKey), .date(key.createdAt), .date(key.retiredAt)])
    }

    func retireSigningKeys(except kid: String, at date: Date) throws {
        try execute(
            "UPDATE signing_keys SET retired_at = ? WHERE kid <> ? AND retired_at IS NULL",
            [.date(date), .text(kid)])
    }

    func setting(_ name: String) throws -> [UInt8]? {
        try first("SELECT value FROM settings WHERE name = ?", [.text(name)]) { $0.blob(0) }
    }

    func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8] {
        try execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            [.text(name), .blob(value)])
        guard let stored = try setting(name) else {
            throw StoreError.failure(reason: "setting vanished right after it was inserted")
        }
        return stored
    }

    func settingNames() throws -> [String] {
        try query("SELECT name FROM settings ORDER BY name", []) { $0.text(0) }
    }

    func replaceSetting(_ name: String, value: [UInt8]) throws {
        try execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [.text(name), .blob(value)])
    }

    @discardableResult
    func deleteSetting(_ name: String) throws -> Bool {
        try execute("DELETE FROM settings WHERE name = ?", [.text(name)]) > 0
    }

    @discardableResult
    func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool {
        try execute("UPDATE signing_keys SET seed = ? WHERE kid = ?", [.blob(seed), .text(kid)]) > 0
    }
}
