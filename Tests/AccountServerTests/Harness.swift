import AccountAPI
import AccountStore
import AccountStoreSQLite
import Foundation
import HTTPServer
import Mailer
import Synchronization
@testable import AccountServer

/// A clock tests move by hand, so expiries are tested without sleeping.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var serverClock: ServerClock { ServerClock { [self] in self.now } }
}

/// One app over a real SQLite file and a real file mailer in a temporary folder, called in process.
///
/// When a test lets go of it, its mail delivery stops, its database connections close and its
/// folder goes: otherwise each test would keep its files open to the end of the run, and
/// Foundation's `Process.run()` was seen to crash once the test process held over a thousand.
final class Harness: Sendable {
    let app: AccountApp
    let store: SQLiteAccountStore
    let clock: TestClock
    let folder: URL
    var mailFolder: URL { folder.appendingPathComponent("mail") }

    init(app: AccountApp, store: SQLiteAccountStore, clock: TestClock, folder: URL) {
        self.app = app
        self.store = store
        self.clock = clock
        self.folder = folder
    }

    deinit {
        let (app, store, folder) = (app, store, folder)
        Task {
            await app.shutdown()
            await store.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await make(folder: folder, database: folder.appendingPathComponent("account.sqlite"), configure)
    }

    /// An app over the SQLite file `database`, which may lie outside `folder` and outlive the
    /// harness (a server restarted on its file), with mail in `folder`.
    static func make(folder: URL, database: URL, _ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        var configuration = ServerConfiguration()
        configuration.hashMemory = 64 * 1024
        configuration.hashPasses = 1
        configuration.hashThreads = 2
        configuration.ipRateLimit = 0
        configuration.accessLog = false
        configure(&configuration)
        let store = try SQLiteAccountStore(path: database.path)
        let transport = try FileMailTransport(directory: folder.appendingPathComponent("mail"), sender: configuration.mailFrom)
        let clock = TestClock()
        do {
            let app = try await AccountApp.make(configuration: configuration, store: store, transport: transport, clock: clock.serverClock)
            return Harness(app: app, store: store, clock: clock, folder: folder)
        } catch {
            await store.close()
            throw error
        }
    }

    /// Sends a request with a JSON body made from `json` (a dictionary or array), or raw `body`.
    @discardableResult
    func send(
        _ method: String, _ path: String, json: Any? = nil, body: [UInt8]? = nil,
        headers: [String: String] = [:], token: String? = nil, query: [String: String] = [:]
    ) async throws -> Reply {
        var requestHeaders: HTTPHeaders = [:]
        var bytes = body ?? []
        if let json {
            bytes = [UInt8](try JSONSerialization.data(withJSONObject: json))
            requestHeaders.add("Content-Type", "application/json")
        }
        for (name, value) in headers { requestHeaders.set(name, value) }
        if let token { requestHeaders.set("Authorization", "Bearer \(token)") }
        let response = await app.handle(HTTPRequest(method: method, path: path, query: query, headers: requestHeaders, body: bytes))
        return Reply(response: response)
    }

    /// Delivers due mail and returns every message file's text, oldest first.
    func mails() async throws -> [String] {
        await app.deliverMail()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mailFolder.path)) ?? []
        return try names.filter { $0.hasSuffix(".eml") }.sorted().map {
            try String(contentsOf: mailFolder.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// The 6-digit code in the newest message to `email`.
    func latestCode(to email: String) async throws -> String? {
        let messages = try await mails().filter { $0.contains("To: \(email)") }
        guard let text = messages.last else { return nil }
        return Self.sixDigits(in: text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func sixDigits(in text: String) -> String? {
        guard let match = text.firstMatch(of: /(^|[^0-9])([0-9]{6})(?![0-9])/) else { return nil }
        return String(match.output.2)
    }

    /// Counts rows that requests could have written: `[users, outbox]`.
    func counts() async throws -> [Int] {
        try await store.read { tx in [try tx.userCount(), try tx.outboxCount()] }
    }

    /// Every table's row count except the ones written at start (keys, settings, migrations).
    func rowCounts() async throws -> [String: Int] {
        try await store.rowCounts().filter { !["signing_keys", "settings", "schema_migrations"].contains($0.key) }
    }

    /// Signs up (details first), verifies with the mailed code and logs in; returns the login reply.
    func signedInUser(_ username: String = "민수", email: String = "minsu@example.com", password: String = "correct horse battery") async throws -> Reply {
        let signup = try await send("POST", "/auth/signup", json: ["username": username, "email": email, "password": password, "password_confirmation": password, "mbti": "enfp"])
        guard signup.status == 202 else { throw HarnessError("sign-up failed: \(signup.text)") }
        guard let code = try await latestCode(to: email) else { throw HarnessError("no code mailed to \(email)") }
        let verify = try await send("POST", "/auth/email/verify", json: ["email": email, "code": code])
        guard verify.status == 200 else { throw HarnessError("verify failed: \(verify.text)") }
        return try await send("POST", "/auth/login", json: ["email": email, "password": password])
    }
}

/// A reply with helpers to read it.
struct Reply {
    let response: HTTPResponse
    var status: Int { response.status }
    var text: String { String(decoding: response.body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:] }
    subscript(_ key: String) -> Any? { json[key] }
    var code: String? { json["code"] as? String }
    func header(_ name: String) -> String? { response.headers[name] }
    func fieldCodes(_ field: String) -> [String] {
        ((json["errors"] as? [String: Any])?[field] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try AccountJSON.makeDecoder().decode(T.self, from: Data(response.body)) }
}

/// A harness step that did not go as a test needs it to.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
