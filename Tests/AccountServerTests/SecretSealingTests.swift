import AccountAPI
import AccountStore
import Foundation
import Sodium
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// A database folder that outlives the apps started on it, as a server restarted on its file, and
/// the key files given to them.
final class ServerFolder: Sendable {
    let url: URL
    var database: URL { url.appendingPathComponent("account.sqlite") }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("account-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A new key file of random bytes in `format`; its path.
    func keyFile(_ format: KeyFormat = .hex, mode: mode_t = 0o600) throws -> String {
        let key = SecureRandom.bytes(count: 32)
        let path = url.appendingPathComponent("key-\(UUID().uuidString)").path
        let contents: [UInt8] = switch format {
        case .raw: key
        case .hex: Array((Hex.encode(key) + "\n").utf8)
        case .base64: Array((Data(key).base64EncodedString() + "\n").utf8)
        }
        try Data(contents).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    enum KeyFormat { case raw, hex, base64 }

    /// An app on this folder's database with `keyFile`; stop it with ``stop(_:)`` before the next.
    func start(keyFile: String?, _ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        let run = url.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        return try await Harness.make(folder: run, database: database) {
            $0.secretKeyFile = keyFile
            configure(&$0)
        }
    }

    func stop(_ harness: Harness) async {
        await harness.app.shutdown()
        await harness.store.close()
    }

    /// What `keys unseal` does, on this folder's database with every server stopped: puts its
    /// secrets back in clear with the key of `keyFile`; returns its counts.
    func unseal(keyFile: String) async throws -> (settings: Int, signingKeys: Int, mail: Int, unopenedMail: Int) {
        let harness = try await start(keyFile: keyFile)
        let seal = harness.app.services.secrets.seal
        let counts = try await harness.store.write { try seal.unseal(in: $0) }
        await stop(harness)
        return counts
    }
}

@Suite("Secrets sealed with --secret-key-file")
struct SecretSealingTests {
    /// The settings and seeds as stored, by name and kid.
    static func stored(_ harness: Harness) async throws -> (settings: [String: [UInt8]], seeds: [String: [UInt8]]) {
        try await harness.store.read { tx in
            var settings: [String: [UInt8]] = [:]
            for name in try tx.settingNames() { settings[name] = try tx.setting(name) }
            return (settings, Dictionary(uniqueKeysWithValues: try tx.signingKeys().map { ($0.kid, $0.seed) }))
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test("without a key file a copy of the database can check codes and sign: the attack the key file stops")
    func clearDatabaseGivesSecretsAway() async throws {
        let folder = try ServerFolder()
        let harness = try await folder.start(keyFile: nil)
        try await harness.signUp(TestAccount(username: "clear", email: "clear@example.com", password: "correct horse battery"))
        let code = try await harness.mail.code(to: "clear@example.com")
        let (settings, seeds) = try await Self.stored(harness)
        let row = try #require(try await harness.store.read { try $0.code(emailKey: "clear@example.com", purpose: "verify") })
        let stolenKey = try #require(settings["code_hmac_key"])
        #expect(CodeHasher(key: stolenKey, digits: 6, random: .system).hash(code: code, emailKey: "clear@example.com", purpose: "verify") == row.codeHash)
        let signing = try await harness.app.services.keys.current(now: harness.clock.now).signing
        #expect(seeds[signing.kid] == signing.key.seed)
        #expect(settings[SecretSeal.checkSetting] == nil)
        await folder.stop(harness)
    }

    @Test("with a key file no secret is in the database: stored values are sealed and useless alone")
    func sealedDatabaseHoldsNothingUsable() async throws {
        let folder = try ServerFolder()
        let harness = try await folder.start(keyFile: try folder.keyFile())
        try await harness.signUp(TestAccount(username: "sealed", email: "sealed@example.com", password: "correct horse battery"))
        let code = try await harness.mail.code(to: "sealed@example.com")
        let login = try await harness.send("POST", "/auth/login", json: ["email": "sealed@example.com", "password": "correct horse battery"])
        #expect(login.status == 403, "not verified yet: the password was checked")
        let (settings, seeds) = try await Self.stored(harness)
        let secrets = harness.app.services.secrets
        let real = [
            "code_hmac_key": secrets.codeKey, "refresh_derivation_key": secrets.refreshKey, "client_binding_key": secrets.clientKey,
            "totp_secret_key": secrets.totpKey, "recovery_code_hmac_key": secrets.recoveryCodeKey,
            "signup_binding_key": secrets.signUpKey, "apple_token_key": secrets.appleTokenKey,
        ]
        #expect(Set(settings.keys) == Set(real.keys).union([SecretSeal.checkSetting]))
        for (name, value) in real {
            let stored = try #require(settings[name])
            #expect(stored.count == 4 + 40 + 32, "\(name)")
            #expect(stored.starts(with: Array("sbx1".utf8)), "\(name)")
            #expect(!Self.contains(stored, value), "\(name)")
        }
        let row = try #require(try await harness.store.read { try $0.code(emailKey: "sealed@example.com", purpose: "verify") })
        #expect(CodeHasher(key: secrets.codeKey, digits: 6, random: .system).hash(code: code, emailKey: "sealed@example.com", purpose: "verify") == row.codeHash)
        for stolen in settings.values {
            #expect(CodeHasher(key: stolen, digits: 6, random: .system).hash(code: code, emailKey: "sealed@example.com", purpose: "verify") != row.codeHash)
        }
        let signing = try await harness.app.services.keys.current(now: harness.clock.now).signing
        let storedSeed = try #require(seeds[signing.kid])
        #expect(storedSeed.count == 4 + 40 + 32)
        #expect(!Self.contains(storedSeed, signing.key.seed))
        #expect((try? Ed25519SigningKey(seed: storedSeed)) == nil)
        // The server itself works as before.
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "sealed@example.com", "code": code]).status == 200)
        let pair = try await harness.send("POST", "/auth/login", json: ["email": "sealed@example.com", "password": "correct horse battery"]).decode(TokenPair.self)
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).status == 200)
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).status == 200)
        await folder.stop(harness)
    }

    @Test("a sealed database refuses another key and no key, naming the key it needs; its own key opens it again")
    func refusesOtherKeys() async throws {
        let folder = try ServerFolder()
        let keyFile = try folder.keyFile()
        let first = try await folder.start(keyFile: keyFile)
        let pair = try await first.signedIn(.minsu)
        try await first.signUp(TestAccount(username: "later", email: "later@example.com", password: "correct horse battery"))
        let code = try await first.mail.code(to: "later@example.com")
        await folder.stop(first)
        let fingerprint = try #require(SecretSeal.configured(keyFile: keyFile).fingerprint)

        let other = try folder.keyFile(.raw)
        let otherFingerprint = try #require(SecretSeal.configured(keyFile: other).fingerprint)
        await #expect(throws: SecretsError.sealedWithAnotherKey(database: fingerprint, given: otherFingerprint)) {
            try await folder.start(keyFile: other)
        }
        await #expect(throws: SecretsError.sealedWithoutKey(database: fingerprint)) {
            try await folder.start(keyFile: nil)
        }
        #expect(SecretsError.sealedWithoutKey(database: fingerprint).description.contains("--secret-key-file"))
        #expect(SecretsError.sealedWithAnotherKey(database: fingerprint, given: otherFingerprint).description.contains(fingerprint))

        // Nothing was changed by the refused starts.
        let again = try await folder.start(keyFile: keyFile)
        #expect(try await again.send("GET", "/auth/me", token: pair.access).status == 200)
        #expect(try await again.send("POST", "/auth/email/verify", json: ["email": "later@example.com", "code": code]).status == 200)
        #expect(try await again.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).status == 200)
        await folder.stop(again)
    }

    @Test("a clear database started with a key is sealed in one go; tokens and codes from before still work; unseal goes back")
    func sealingAnExistingDatabaseAndBack() async throws {
        let folder = try ServerFolder()
        let clear = try await folder.start(keyFile: nil)
        let pair = try await clear.signedIn(.minsu)
        try await clear.signUp(TestAccount(username: "pending", email: "pending@example.com", password: "correct horse battery"))
        let code = try await clear.mail.code(to: "pending@example.com")
        let before = try await Self.stored(clear)
        await folder.stop(clear)

        let keyFile = try folder.keyFile(.base64)
        let sealed = try await folder.start(keyFile: keyFile)
        let after = try await Self.stored(sealed)
        #expect(Set(after.settings.keys) == Set(before.settings.keys).union([SecretSeal.checkSetting]))
        let seal = sealed.app.services.secrets.seal
        for (name, value) in before.settings {
            #expect(after.settings[name] != value)
            #expect(try seal.open(after.settings[name] ?? [], context: "setting:" + name) == value, "\(name)")
        }
        for (kid, seed) in before.seeds {
            #expect(try seal.open(after.seeds[kid] ?? [], context: "signing-key:" + kid) == seed, "\(kid)")
        }
        #expect(try await sealed.send("GET", "/auth/me", token: pair.access).status == 200)
        #expect(try await sealed.send("POST", "/auth/email/verify", json: ["email": "pending@example.com", "code": code]).status == 200)
        let rotated = try await sealed.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).decode(TokenPair.self)
        await folder.stop(sealed)

        // Back to clear, with the key (stop every server first): then it starts without one.
        let counts = try await folder.unseal(keyFile: keyFile)
        #expect(counts.settings == 7 && counts.signingKeys == 1)
        let clearAgain = try await folder.start(keyFile: nil)
        #expect(try await Self.stored(clearAgain).settings == before.settings)
        #expect(try await Self.stored(clearAgain).seeds == before.seeds)
        await #expect(throws: SecretsError.notSealed) { try await clearAgain.store.write { try seal.unseal(in: $0) } }
        #expect(try await clearAgain.send("GET", "/auth/me", token: rotated.access).status == 200)
        #expect(try await clearAgain.send("POST", "/auth/refresh", json: ["refresh": rotated.refresh]).status == 200)
        await folder.stop(clearAgain)
    }

    @Test("a sealed value copied to another row, or altered, does not open: the server refuses to start")
    func movedOrAlteredValuesRefused() async throws {
        let folder = try ServerFolder()
        let keyFile = try folder.keyFile()
        let first = try await folder.start(keyFile: keyFile)
        let settings = try await Self.stored(first).settings
        try await first.store.write { tx in
            try tx.replaceSetting("code_hmac_key", value: settings["refresh_derivation_key"]!)
        }
        await folder.stop(first)
        await #expect(throws: SecretsError.cannotOpen("setting:code_hmac_key")) { try await folder.start(keyFile: keyFile) }

        let otherFolder = try ServerFolder()
        let second = try await otherFolder.start(keyFile: keyFile)
        let kid = try #require(try await Self.stored(second).seeds.keys.first)
        var altered = try #require(try await Self.stored(second).seeds[kid])
        altered[altered.count - 1] ^= 1
        let seed = altered
        _ = try await second.store.write { try $0.replaceSigningKeySeed(kid: kid, seed: seed) }
        await #expect(throws: SecretsError.cannotOpen("signing-key:" + kid)) { try await second.app.services.keys.reload(now: second.clock.now) }
        await otherFolder.stop(second)
    }
}

@Suite("The secret key file")
struct SecretKeyFileTests {
    @Test("32 raw bytes, 64 hex digits or base64, with blanks around the text forms")
    func formats() throws {
        let key = (0..<32).map { UInt8($0 * 7 + 1) }
        let hex = Hex.encode(key)
        let base64 = Data(key).base64EncodedString()
        for contents in [key, Array(hex.utf8), Array((hex + "\n").utf8), Array((hex.uppercased() + "\r\n").utf8),
                         Array(("  " + base64 + "\n").utf8), Array(base64.utf8)] {
            #expect(SecretKeyFile.parse(contents) == key, "\(contents.count) bytes")
        }
        for contents in [Array(key.prefix(31)), key + [0], Array(hex.dropLast().utf8), Array((hex + "0").utf8),
                         Array((hex + "\n" + hex).utf8), Array(base64.dropLast(2).utf8), Array(("x" + hex.dropFirst()).utf8), [], Array("\n\n".utf8)] {
            #expect(SecretKeyFile.parse(contents) == nil, "\(contents.count) bytes")
        }
    }

    @Test("a missing, malformed, non-random or non-regular key file is a clear error; a readable one is reported")
    func readErrors() throws {
        let folder = try ServerFolder()
        let missing = folder.url.appendingPathComponent("nope").path
        #expect(throws: SecretsError.keyFileUnreadable(path: missing, reason: "No such file or directory")) { try SecretKeyFile.read(missing) }
        #expect(throws: SecretsError.keyFileUnreadable(path: folder.url.path, reason: "not a regular file")) { try SecretKeyFile.read(folder.url.path) }
        let short = folder.url.appendingPathComponent("short").path
        try Data(repeating: 1, count: 16).write(to: URL(fileURLWithPath: short))
        #expect(throws: SecretsError.keyFileMalformed(path: short, size: 16)) { try SecretKeyFile.read(short) }
        #expect(SecretsError.keyFileMalformed(path: short, size: 16).description.contains("generate-secret-key"))
        let zeros = folder.url.appendingPathComponent("zeros").path
        try Data(Array(String(repeating: "0", count: 64).utf8)).write(to: URL(fileURLWithPath: zeros))
        #expect(throws: SecretsError.keyFileNotRandom(path: zeros)) { try SecretKeyFile.read(zeros) }

        #expect(try SecretKeyFile.read(try folder.keyFile(.hex, mode: 0o600)).looseMode == nil)
        #expect(try SecretKeyFile.read(try folder.keyFile(.hex, mode: 0o400)).looseMode == nil)
        #expect(try SecretKeyFile.read(try folder.keyFile(.raw, mode: 0o644)).looseMode == 0o644)
        #expect(try SecretKeyFile.read(try folder.keyFile(.raw, mode: 0o640)).looseMode == 0o640)
    }

    @Test("generate writes 64 hex digits, mode 0600, and never replaces a file")
    func generate() throws {
        let folder = try ServerFolder()
        let path = folder.url.appendingPathComponent("secret.key").path
        let key = try SecretKeyFile.generate(at: path)
        #expect(try SecretKeyFile.read(path).key == key)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Hex.encode(key.bytes) + "\n")
        var status = stat()
        stat(path, &status)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(throws: SecretsError.keyFileExists(path: path)) { try SecretKeyFile.generate(at: path) }
        #expect(try SecretKeyFile.read(path).key == key)
    }

    @Test("--secret-key-file and ACCOUNT_SECRET_KEY_FILE; keys unseal and keys generate-secret-key PATH")
    func commandLine() throws {
        guard case .serve(let flag) = try ServerCommandLine.parse(["--secret-key-file", "/run/key"], environment: [:]) else { Issue.record(); return }
        #expect(flag.secretKeyFile == "/run/key")
        guard case .serve(let twin) = try ServerCommandLine.parse([], environment: ["ACCOUNT_SECRET_KEY_FILE": "/env/key"]) else { Issue.record(); return }
        #expect(twin.secretKeyFile == "/env/key")
        guard case .rotateKeys(let rotate) = try ServerCommandLine.parse(["keys", "rotate", "--secret-key-file=/k"], environment: [:]) else { Issue.record(); return }
        #expect(rotate.secretKeyFile == "/k")
        guard case .unsealSecrets(let unseal) = try ServerCommandLine.parse(["keys", "unseal", "--secret-key-file", "/k"], environment: [:]) else { Issue.record(); return }
        #expect(unseal.secretKeyFile == "/k")
        #expect(try ServerCommandLine.parse(["keys", "generate-secret-key", "/tmp/k"], environment: [:]) == .generateSecretKey(path: "/tmp/k"))
        for bad in [["keys", "generate-secret-key"], ["keys", "generate-secret-key", "/a", "/b"], ["keys", "generate-secret-key", "--port"], ["keys", "seal"], ["keys"]] {
            #expect(throws: CommandLineError.self, "\(bad)") { try ServerCommandLine.parse(bad, environment: [:]) }
        }
        #expect(ServerCommandLine.helpText.contains("--secret-key-file"))
        #expect(ServerCommandLine.helpText.contains("keys generate-secret-key PATH"))
    }
}
