import AccountAPI
import AccountCore
import AccountServer
import AccountStore
import AccountStoreSQLite
import Foundation
import Mailer
import TestSupport

/// The core's environment as a test builds it, without HTTP: ``Services`` over a real SQLite
/// file in a temporary folder, a ``TestClock``, the system's randomness or a seeded one, the
/// in-process server's cheap hashing, and mail written to files. Operations are called on ``services`` directly (`services.loginOperations`),
/// with a ``caller(_:)`` standing for the request.
///
/// Its mail delivery and hashing threads stop, and its folder goes, when the test lets go of it.
package final class TestEnvironment: Sendable {
    package let services: Services
    package let clock: TestClock
    /// The temporary folder of the database and the mail.
    package let folder: URL
    /// The messages the services mailed; every look first delivers what is due.
    package var mail: MailFolder {
        MailFolder(folder: folder.appendingPathComponent("mail")) { [services] in _ = await services.mail.deliverDue() }
    }

    private init(services: Services, clock: TestClock, folder: URL) {
        (self.services, self.clock, self.folder) = (services, clock, folder)
    }

    deinit {
        let (services, folder) = (services, folder)
        Task {
            await services.stop()
            await services.store.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// An environment in a new temporary folder, with the binary's options (`["--allow-unverified-login"]`)
    /// over the in-process defaults; `random` is where its secrets, codes, tokens and ids come from.
    package static func start(
        _ options: [String] = [], clock: TestClock = TestClock(), random: Randomness = .system
    ) async throws -> TestEnvironment {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard case .serve(let configuration) = try ServerCommandLine.parse(InProcessServer.inProcessOptions + options, environment: [:]) else {
            throw TestFailure("not options of serve: \(options)")
        }
        let store = try SQLiteAccountStore(path: folder.appendingPathComponent("account.sqlite").path)
        do {
            let transport = try FileMailTransport(directory: folder.appendingPathComponent("mail"), sender: configuration.mailFrom)
            let services = try await Services.start(configuration: configuration, store: store, transport: transport, clock: clock.serverClock, random: random)
            return TestEnvironment(services: services, clock: clock, folder: folder)
        } catch {
            await store.close()
            throw error
        }
    }

    /// A caller at the clock's time, from a fixed test address.
    package func caller(_ language: Language = .en, userAgent: String? = "TestEnvironment/1") -> Caller {
        Caller(requestID: UUID().uuidString, clientAddress: "203.0.113.9", userAgent: userAgent, language: language, now: clock.now)
    }
}
