import AccountAPI
import AccountStore
import AccountStoreSQLite
import Foundation
import HTTPServer
import InProcess
import Mailer
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// The app these tests call: the test kit's in-process server (a real SQLite file, a real file
/// mailer and a ``TestClock`` in a temporary folder), with what only server tests read.
typealias Harness = InProcessServer

extension InProcessServer {
    static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        try await start(configure: configure)
    }

    /// An app over the SQLite file `database`, which may lie outside `folder` and outlive the
    /// harness (a server restarted on its file), with mail in `folder`.
    static func make(folder: URL, database: URL, _ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        try await start(folder: folder, database: database, configure: configure)
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
    func mails() async throws -> [String] { await mail.delivered() }

    /// The code in the newest message to `email` (the test kit's one rule), after delivering
    /// due mail; `nil` when there is none.
    func latestCode(to email: String) async throws -> String? {
        _ = await mail.delivered()
        return mail.messages(to: email).last.flatMap(MailFolder.code(in:))
    }

    /// Counts rows that requests could have written: `[users, outbox]`.
    func counts() async throws -> [Int] {
        try await store.read { tx in [try tx.userCount(), try tx.outboxCount()] }
    }

    /// Every table's row count except the ones written at start (keys, settings, migrations) and
    /// the hourly counters, which the server adds to on a timer of its own.
    func rowCounts() async throws -> [String: Int] {
        try await store.rowCounts().filter { !["signing_keys", "settings", "schema_version", "hourly_counters"].contains($0.key) }
    }

    /// Signs up (details first), verifies with the mailed code and logs in; returns the login reply.
    func signedInUser(_ username: String = "민수", email: String = "minsu@example.com", password: String = "correct horse battery") async throws -> Reply {
        let signup = try await send("POST", "/auth/signup", json: ["username": username, "email": email, "password": password, "password_confirmation": password, "mbti": "enfp"])
        guard signup.status == 202 else { throw TestFailure("sign-up failed: \(signup.text)") }
        guard let code = try await latestCode(to: email) else { throw TestFailure("no code mailed to \(email)") }
        let verify = try await send("POST", "/auth/email/verify", json: ["email": email, "code": code])
        guard verify.status == 200 else { throw TestFailure("verify failed: \(verify.text)") }
        return try await send("POST", "/auth/login", json: ["email": email, "password": password])
    }
}

extension AccountApp {
    /// The reply when the pipeline answers `request` without waiting (on the HTTP thread); `nil`
    /// when it hands back work to wait for, which is dropped.
    func answeredAtOnce(_ request: HTTPRequest) -> HTTPResponse? {
        guard case .ready(let response) = respond(to: request) else { return nil }
        return response
    }
}
