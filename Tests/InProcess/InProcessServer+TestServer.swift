import AccountServer
import Foundation
import HTTPServer
import Testing
import TestSupport

extension InProcessServer: TestServer {
    /// Hands `request` to the app as the HTTP server would hand it over, without a socket: the
    /// path and query decoded, the header fields as given, from loopback.
    public func send(_ request: TestRequest) async throws -> Reply {
        var headers = HTTPHeaders()
        for field in request.fields { headers.add(field.name, field.value) }
        let body = [UInt8](request.body ?? Data())
        let response = await respond(to: HTTPRequest(method: request.method, path: request.path, query: request.query, headers: headers, body: body))
        return Reply(response: response)
    }

    public func rowCounts() async throws -> [String: Int] {
        try await store.rowCounts().filter { !Self.tablesWrittenWithoutRequests.contains($0.key) }
    }

    /// The `admin grant` command's own code, on this app's SQLite file.
    public func grantAdmin(_ username: String) async throws {
        let status = await ServerMain.run(
            arguments: ["admin", "grant", username, "--reason", "tests", "--database-url", "sqlite:\(database.path)"], environment: [:])
        guard status == 0 else { throw TestFailure("admin grant \(username) exited \(status)") }
    }

    /// Nothing to wait for: the app lets go of its files when the last reference goes.
    public func stopServer(sourceLocation: SourceLocation) async {}

    /// The app in the test process as a ``TestServerKind``: each in a folder of its own, on a
    /// clock of its own that stands still until the test moves it.
    public struct Kind: TestServerKind {
        public init() {}

        public var description: String { "in process" }

        public func start(_ options: [String]) async throws -> any TestServer { try await InProcessServer.start(options) }
    }
}
