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
/// mailer and a ``TestClock`` in a temporary folder), with what only server tests read. Requests
/// (`send`), row counts and accounts (the kit's account factory) come from ``TestServer``.
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
}

extension AccountApp {
    /// The reply when the pipeline answers `request` without waiting (on the HTTP thread); `nil`
    /// when it hands back work to wait for, which is dropped.
    func answeredAtOnce(_ request: HTTPRequest) -> HTTPResponse? {
        guard case .ready(let response) = respond(to: request) else { return nil }
        return response
    }
}
