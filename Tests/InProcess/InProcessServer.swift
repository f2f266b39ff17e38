import AccountCore
import AccountServer
import AccountStore
import AccountStoreCache
import AccountStoreSQLite
import Foundation
import HTTPServer
import Mailer
import TestSupport

/// The account app in the test process, over a real SQLite file and a real file mailer in a
/// temporary folder, on a ``TestClock``: the server of the in-process tests, called without a
/// socket (``respond(to:)``), or by AccountKit's client through ``transport``.
///
/// The options are the binary's (`["--access-ttl", "30"]`, as ``ServerProcess`` takes them),
/// over the same cheap-hashing defaults; `configure` sets what has no option.
///
/// When a test lets go of it, its mail delivery stops, its database connections close and its
/// folder goes: otherwise each test would keep its files open to the end of the run, and
/// Foundation's `Process.run()` was seen to crash once the test process held over a thousand.
public final class InProcessServer: Sendable {
    public let app: AccountApp
    /// The SQLite store, behind a cache unless the configuration turned the read model off.
    public let store: any AccountStore
    public let clock: TestClock
    /// The folder of the mail (and of the database, unless it was given elsewhere); removed at the end.
    public let folder: URL
    /// The SQLite file it serves (which may lie outside `folder`).
    public let database: URL
    /// Where the file mailer writes `.eml` files.
    public var mailFolder: URL { folder.appendingPathComponent("mail") }
    /// The messages the app mailed; every look first delivers what is due.
    public var mail: MailFolder { MailFolder(folder: mailFolder) { [app] in await app.deliverMail() } }
    /// The URL clients are given; the transport answers whatever host it names.
    public let baseURL = URL(string: "http://in-process.test")!

    private init(app: AccountApp, store: any AccountStore, clock: TestClock, folder: URL, database: URL) {
        self.app = app
        self.store = store
        self.clock = clock
        self.folder = folder
        self.database = database
    }

    deinit {
        let (app, store, folder) = (app, store, folder)
        Task {
            await app.shutdown()
            await store.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// An app in a new temporary folder; see the type's documentation.
    public static func start(
        _ options: [String] = [], clock: TestClock = TestClock(), configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> InProcessServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await start(options, folder: folder, database: folder.appendingPathComponent("account.sqlite"), clock: clock, configure: configure)
    }

    /// An app over the SQLite file `database`, which may lie outside `folder` and outlive this
    /// server (a server restarted on its file), with mail in `folder`, which goes with it.
    public static func start(
        _ options: [String] = [], folder: URL, database: URL, clock: TestClock = TestClock(),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> InProcessServer {
        guard case .serve(var configuration) = try ServerCommandLine.parse(inProcessOptions + options, environment: [:]) else {
            throw TestFailure("not options of serve: \(options)")
        }
        configure(&configuration)
        let sqlite = try SQLiteAccountStore(path: database.path)
        let capacity = configuration.readModelCapacity
        let store: any AccountStore =
            capacity > 0 ? CachingAccountStore(sqlite, capacity: capacity, feed: sqlite.changeFeed(reportingTo:)) : sqlite
        do {
            let transport = try FileMailTransport(directory: folder.appendingPathComponent("mail"), sender: configuration.mailFrom)
            let app = try await AccountApp.make(configuration: configuration, store: store, transport: transport, clock: clock.serverClock)
            return InProcessServer(app: app, store: store, clock: clock, folder: folder, database: database)
        } catch {
            await store.close()
            throw error
        }
    }

    /// The defaults of an in-process app: ``ServerProcess``'s cheap hashing and no per-address
    /// limit, two hashing threads, and no access log (nobody reads it here).
    package static let inProcessOptions = [
        "serve", "--ip-rate-limit", "0", "--hash-memory", "64", "--hash-passes", "1", "--hash-threads", "2", "--access-log", "off",
    ]

    /// Answers `request` as the HTTP server would: on the caller's thread until a step has to
    /// wait, then in this task.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await app.handle(request)
    }
}

extension TestClock {
    /// This clock as an app's time source.
    public var serverClock: ServerClock { ServerClock { [self] in now } }
}
