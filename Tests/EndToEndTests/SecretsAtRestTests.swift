import AccountAPI
import Foundation
import TestSupport
import Testing

/// The JSON log lines a server wrote with `"event": event`.
func logEvents(_ logs: String, _ event: String) -> [[String: Any]] {
    logs.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["event"] as? String == event ? object : nil
    }
}

/// Permission bits of `path`, or nil when it does not exist.
func fileMode(_ path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
}

/// Files the real server makes are private whatever the umask, and looser database files are
/// tightened at start with one warning line.
@Suite("Files at rest")
struct FileModeTests {
    @Test(arguments: [mode_t(0o000), 0o022])
    func everyFileIsPrivateWhateverTheUmask(umask: mode_t) async throws {
        let folder = try TemporaryFolder()
        #expect(fileMode(folder.mail.path) == nil, "the server makes the mail folder")
        let server = try await ServerProcess.start(in: folder, umask: umask)
        try await server.verifiedAccount("modes")
        let database = folder.database.path
        for file in [database, database + "-wal", database + "-shm"] {
            #expect(fileMode(file) == 0o600, "\(file) under umask \(String(umask, radix: 8))")
        }
        #expect(fileMode(folder.mail.path) == 0o700)
        let mails = try FileManager.default.contentsOfDirectory(atPath: folder.mail.path)
        #expect(!mails.isEmpty)
        for name in mails {
            #expect(fileMode(folder.mail.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
        #expect(logEvents(server.logs, "database_file_mode_tightened").isEmpty)
        await server.stop()
        #expect(fileMode(database) == 0o600)
    }

    @Test func looseDatabaseFilesAreTightenedAtStartWithOneWarning() async throws {
        let folder = try TemporaryFolder()
        let first = try await ServerProcess.start(in: folder)
        let (_, pair) = try await first.verifiedAccount("loose")
        // Killed, so the -wal and -shm stay; then opened up, as a copy or an older build leaves them.
        await first.kill9()
        let database = folder.database.path
        for (suffix, mode) in [("", mode_t(0o644)), ("-wal", 0o664), ("-shm", 0o666)] {
            #expect(chmod(database + suffix, mode) == 0)
        }
        let second = try await ServerProcess.start(in: folder)
        for suffix in ["", "-wal", "-shm"] {
            #expect(fileMode(database + suffix) == 0o600, "\(suffix)")
        }
        let warnings = logEvents(second.logs, "database_file_mode_tightened")
        #expect(warnings.count == 1, "\(second.logs)")
        let files = warnings.first?["files"] as? String ?? ""
        #expect(files.contains("\(database) (was 644)") && files.contains("\(database)-wal (was 664)") && files.contains("\(database)-shm (was 666)"), "\(files)")
        #expect(warnings.first?["level"] as? String == "warning")
        #expect(try await second.me(pair.access).status == 200)
        await second.stop()

        // Private now: no warning the next time, even with the access log off.
        let third = try await ServerProcess.start(in: folder, ["--access-log", "off"])
        #expect(logEvents(third.logs, "database_file_mode_tightened").isEmpty)
        await third.stop()
        chmod(database, 0o640)
        let fourth = try await ServerProcess.start(in: folder, ["--access-log", "off"])
        #expect(logEvents(fourth.logs, "database_file_mode_tightened").count == 1, "a warning is not an access log line")
        await fourth.stop()
    }
}

/// `--secret-key-file` against the real binary: start, refuse, exit 1, seal, rotate, unseal.
@Suite("Secret key file")
struct SecretKeyFileEndToEndTests {
    /// A new key file made by `account-server keys generate-secret-key`.
    static func generateKey(in folder: TemporaryFolder, _ name: String = "secret.key") async throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        let result = try await runServerCommand(["keys", "generate-secret-key", path])
        #expect(result.status.isSuccess, "\(result.stderr)")
        #expect(result.stdout.contains(path))
        #expect(fileMode(path) == 0o600)
        return path
    }

    /// Runs `serve` expecting it to refuse to start: exit status 1 and a message on stderr.
    static func refusedStart(_ folder: TemporaryFolder, _ extra: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await runServerCommand(ServerProcess.baseArguments(folder) + extra)
        #expect(result.status == ExitStatus(code: 1, signaled: false), "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stdout.contains("listening on"), sourceLocation: sourceLocation)
        return result.stderr
    }

    @Test func aSealedDatabaseStartsOnlyWithItsKey() async throws {
        let folder = try TemporaryFolder()
        let key = try await Self.generateKey(in: folder)
        let other = try await Self.generateKey(in: folder, "other.key")
        let first = try await ServerProcess.start(in: folder, ["--secret-key-file", key])
        let (account, pair) = try await first.verifiedAccount("sealed")
        #expect(logEvents(first.logs, "secrets_sealed").isEmpty, "a new database is sealed from the start: nothing to announce")
        await first.stop()

        let withOther = try await Self.refusedStart(folder, ["--secret-key-file", other])
        #expect(withOther.contains("sealed with secret key") && withOther.contains("give the key file the database was sealed with"), "\(withOther)")
        let withNone = try await Self.refusedStart(folder, [])
        #expect(withNone.contains("--secret-key-file"), "\(withNone)")
        let missing = try await Self.refusedStart(folder, ["--secret-key-file", folder.url.appendingPathComponent("absent.key").path])
        #expect(missing.contains("cannot read the secret key file"), "\(missing)")
        let short = folder.url.appendingPathComponent("short.key").path
        try Data("0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: short))
        let malformed = try await Self.refusedStart(folder, ["--secret-key-file", short])
        #expect(malformed.contains("must hold 32 random bytes") && malformed.contains("generate-secret-key"), "\(malformed)")
        // keys rotate refuses the same way, and changes nothing.
        let rotateWithout = try await runServerCommand(["keys", "rotate", "--database-url", "sqlite:\(folder.database.path)"])
        #expect(rotateWithout.status == ExitStatus(code: 1, signaled: false))
        #expect(rotateWithout.stderr.contains("sealed"), "\(rotateWithout.stderr)")
        // None of it wrote a key file's worth of secrets in clear: the key opens the database again.
        let again = try await ServerProcess.start(in: folder, ["--secret-key-file", key])
        #expect(try await again.me(pair.access).status == 200)
        #expect(try await again.logIn(account).access.isEmpty == false)
        await again.stop()
    }

    @Test func aClearDatabaseIsSealedWhenGivenAKeyThenRotatesAndUnseals() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let clear = try await ServerProcess.start(in: folder, clock: clock)
        let (account, pair) = try await clear.verifiedAccount("clear")
        await clear.stop()

        let key = try await Self.generateKey(in: folder)
        let sealed = try await ServerProcess.start(in: folder, clock: clock, ["--secret-key-file", key])
        let notices = logEvents(sealed.logs, "secrets_sealed")
        #expect(notices.count == 1, "\(sealed.logs)")
        #expect(notices.first?["signing_keys"] as? String == "1")
        #expect(try await sealed.me(pair.access).status == 200, "tokens signed before sealing still verify")
        let kidBefore = try Self.kid(of: pair.access)

        let rotate = try await runServerCommand(["keys", "rotate", "--database-url", "sqlite:\(folder.database.path)", "--secret-key-file", key])
        #expect(rotate.status.isSuccess, "\(rotate.stderr)")
        clock.set(ahead: 31)
        let after = try await sealed.logIn(account)
        #expect(try Self.kid(of: after.access) != kidBefore, "the rotated, sealed key signs")
        #expect(try await sealed.me(after.access).status == 200)
        #expect(try await sealed.me(pair.access).status == 200)
        await sealed.stop()

        // A second start says nothing more; unsealing puts it back, and it starts without a key.
        let quiet = try await ServerProcess.start(in: folder, clock: clock, ["--secret-key-file", key])
        #expect(logEvents(quiet.logs, "secrets_sealed").isEmpty)
        await quiet.stop()
        let unsealWithout = try await runServerCommand(["keys", "unseal", "--database-url", "sqlite:\(folder.database.path)"])
        #expect(unsealWithout.status == ExitStatus(code: 1, signaled: false))
        let unseal = try await runServerCommand(["keys", "unseal", "--database-url", "sqlite:\(folder.database.path)", "--secret-key-file", key])
        #expect(unseal.status.isSuccess, "\(unseal.stderr)")
        let back = try await ServerProcess.start(in: folder, clock: clock)
        #expect(try await back.me(after.access).status == 200)
        await back.stop()
    }

    @Test func aKeyFileOthersCanReadIsUsedWithAWarning() async throws {
        let folder = try TemporaryFolder()
        let key = try await Self.generateKey(in: folder)
        chmod(key, 0o644)
        let server = try await ServerProcess.start(in: folder, ["--secret-key-file", key, "--access-log", "off"])
        let warnings = logEvents(server.logs, "secret_key_file_permissions")
        #expect(warnings.count == 1 && warnings.first?["mode"] as? String == "644", "\(server.logs)")
        try await server.verifiedAccount("loosekey")
        await server.stop()
    }

    @Test func generateNeverOverwrites() async throws {
        let folder = try TemporaryFolder()
        let key = try await Self.generateKey(in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: key))
        let again = try await runServerCommand(["keys", "generate-secret-key", key])
        #expect(again.status == ExitStatus(code: 1, signaled: false))
        #expect(again.stderr.contains("already exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before)
    }

    static func kid(of token: String) throws -> String {
        guard let header = token.split(separator: ".").first, let bytes = Base64URL.decode(header),
            let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], let kid = object["kid"] as? String
        else { throw TestFailure("no kid in \(token)") }
        return kid
    }
}
