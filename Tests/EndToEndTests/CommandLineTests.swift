import AccountAPI
import Foundation
import TestSupport
import Testing

/// The verbs and options of `account-server` as a shell user meets them.
@Suite struct CommandLineTests {
    @Test func helpListsTheDocumentedOptions() async throws {
        let (status, stdout, _) = try await runServerCommand(["--help"])
        #expect(status.isSuccess)
        for option in ["--port", "--database-url", "--mail", "--issuer", "--access-ttl", "--allow-unverified-login", "--ip-rate-limit", "--host"] {
            #expect(stdout.contains(option), "\(option) missing from --help:\n\(stdout)")
        }
        #expect(stdout.contains("migrate") && stdout.contains("keys rotate"))
    }

    @Test func anUnknownOptionFailsWithAMessage() async throws {
        let (status, stdout, stderr) = try await runServerCommand(["serve", "--no-such-option", "1"])
        #expect(!status.isSuccess && !status.signaled)
        #expect(stderr.contains("--no-such-option"), "stderr: \(stderr)")
        #expect(!stdout.contains("listening"))
        let (badValue, _, badValueErrors) = try await runServerCommand(["serve", "--port", "eighty"])
        #expect(!badValue.isSuccess && badValueErrors.contains("port"))
    }

    @Test func migrateCreatesAFreshDatabaseAndExits() async throws {
        let folder = try TemporaryFolder()
        let (status, stdout, stderr) = try await runServerCommand(["migrate", "--database-url", "sqlite:\(folder.database.path)"])
        #expect(status.isSuccess, "\(stdout)\(stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.database.path))
        // Migrating twice is harmless, and a server starts on the result.
        #expect(try await runServerCommand(["migrate", "--database-url", "sqlite:\(folder.database.path)"]).status.isSuccess)
        let server = try await ServerProcess.start(in: folder)
        #expect(try await server.client.send("GET", "/readyz").status == 200)
        await server.stop()
    }

    @Test func keysRotateAddsAKeyAndOldTokensStillVerify() async throws {
        let folder = try TemporaryFolder()
        let before = try await ServerProcess.start(in: folder)
        let (account, oldPair) = try await before.verifiedAccount("rotate")
        let oldKeys = try await before.client.send("GET", "/.well-known/jwks.json").decode(JWKSet.self)
        #expect(oldKeys.keys.count == 1)
        let oldKid = try #require(Self.kid(of: oldPair.access))
        #expect(oldKeys.keys.map(\.kid) == [oldKid])
        await before.stop()

        let rotation = try await runServerCommand(["keys", "rotate", "--database-url", "sqlite:\(folder.database.path)"])
        #expect(rotation.status.isSuccess, "\(rotation.stdout)\(rotation.stderr)")

        let after = try await ServerProcess.start(in: folder)
        let keys = try await after.client.send("GET", "/.well-known/jwks.json").decode(JWKSet.self)
        #expect(keys.keys.count == 2)
        #expect(keys.keys.contains { $0.kid == oldKid })
        #expect(keys.keys.allSatisfy { $0.kty == "OKP" && $0.crv == "Ed25519" && $0.alg == "EdDSA" && Base64URL.decode($0.x)?.count == 32 })

        let oldMe = try await after.me(oldPair.access)
        #expect(oldMe.status == 200, "\(oldMe.text)")
        let newPair = try await after.logIn(account)
        let newKid = try #require(Self.kid(of: newPair.access))
        #expect(newKid != oldKid)
        #expect(keys.keys.contains { $0.kid == newKid })
        #expect(try await after.me(newPair.access).status == 200)
        await after.stop()
    }

    @Test func aPortInUseFailsQuicklyWithAMessage() async throws {
        let holder = try await ServerProcess.start()
        let folder = try TemporaryFolder()
        let (status, stdout, stderr) = try await runServerCommand(
            ["serve", "--port", String(holder.port), "--database-url", "sqlite:\(folder.database.path)", "--mail", "file://\(folder.mail.path)"],
            timeout: .seconds(10))
        #expect(!status.isSuccess && !status.signaled, "\(status)")
        #expect(stderr.contains(String(holder.port)) || stderr.lowercased().contains("in use"), "stderr: \(stderr)")
        #expect(!stdout.contains("listening"))
        // The first server is unharmed.
        #expect(try await holder.client.send("GET", "/healthz").status == 200)
        await holder.stop()
    }

    /// The `kid` in a JWT's header.
    static func kid(of jwt: String) -> String? {
        guard let header = jwt.split(separator: ".").first, let bytes = Base64URL.decode(header),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return object["kid"] as? String
    }
}
