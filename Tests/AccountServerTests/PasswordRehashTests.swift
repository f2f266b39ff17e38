import AccountAPI
import Foundation
import Mailer
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// A password hash made with older Argon2id parameters is replaced at the next login: the check
/// reads the stored hash, which only the app in this process can.
@Suite("Password rehash at login")
struct PasswordRehashTests {
    @Test("a hash made with older parameters is replaced at login")
    func rehashOnLogin() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "rehash", email: "rehash@example.com", password: "correct horse battery"))
        // Same database, new parameters: log in through an app configured with them.
        var configuration = ServerConfiguration()
        configuration.hashMemory = 64 * 1024
        configuration.hashPasses = 2
        configuration.accessLog = false
        let transport = try Mailer.FileMailTransport(directory: harness.mailFolder, sender: configuration.mailFrom)
        let upgraded = try await AccountApp.make(configuration: configuration, store: harness.store, transport: transport, clock: harness.clock.serverClock)
        let before = try #require(try await harness.store.read { try $0.user(usernameKey: "rehash") }).passwordHash
        let login = await upgraded.handle(.init(method: "POST", path: "/auth/login", headers: ["Content-Type": "application/json"], body: Array(#"{"username":"rehash","password":"correct horse battery"}"#.utf8)))
        #expect(login.status == 200)
        let after = try #require(try await harness.store.read { try $0.user(usernameKey: "rehash") }).passwordHash
        #expect(before.contains("t=1"))
        #expect(after.contains("t=2"))
    }
}
