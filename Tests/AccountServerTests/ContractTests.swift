import AccountAPI
import Foundation
import HTTPServer
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// The server keeps to the contract table in AccountAPI: it routes exactly the table's endpoints,
/// answers only the catalog's codes with the catalog's statuses, and serves `/openapi.json` made
/// from both.
@Suite("The server and the contract table")
struct ContractTests {
    @Test("the router's routes are exactly the table's endpoints")
    func routesAreTheTable() async throws {
        let harness = try await Harness.make()
        let routed = harness.app.routes.map { "\($0.method) \($0.path)" }
        let table = Endpoint.all.map(\.route)
        #expect(Set(routed).count == routed.count, "a route registered twice")
        #expect(Set(table).count == table.count, "an endpoint listed twice")
        for route in Set(routed).subtracting(table).sorted() { Issue.record("\(route) is routed but not in the contract table") }
        for route in Set(table).subtracting(routed).sorted() { Issue.record("\(route) is in the contract table but not routed") }
        #expect(Set(Endpoint.all.map(\.operationId)).count == Endpoint.all.count, "two endpoints share an operationId")
    }

    @Test("/openapi.json holds the table's operations, with their ids, and the catalog's codes")
    func documentIsTheTable() async throws {
        let harness = try await Harness.make()
        let reply = try await harness.send("GET", "/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        var served = 0
        for item in paths.values { served += item.count }
        #expect(served == Endpoint.all.count)
        for endpoint in Endpoint.all {
            let operation = try #require(paths[endpoint.path]?[endpoint.method.rawValue.lowercased()], "\(endpoint.route)")
            #expect(operation["operationId"] as? String == endpoint.operationId)
            #expect((operation["security"] != nil) == (endpoint.auth != .none), "\(endpoint.route)")
            let statuses = Set(((operation["responses"] as? [String: Any]) ?? [:]).keys.compactMap { Int($0) })
            #expect(statuses.isSuperset(of: endpoint.errorReplies.keys), "\(endpoint.route)")
        }
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let code = try #require(((schemas["Problem"] as? [String: Any])?["properties"] as? [String: Any])?["code"] as? [String: Any])
        let listed = Set(ErrorCatalog.codeSpans(in: try #require(code["description"] as? String)))
        #expect(listed == Set(ErrorCatalog.serverCodes.map(\.rawValue)))
    }

    @Test("each code's statuses in the catalog are those the table's replies name it with")
    func catalogStatusesAreTheTables() {
        var named: [ErrorCode: Set<Int>] = [:]
        for endpoint in Endpoint.all {
            for (code, statuses) in endpoint.errorCodes { named[code, default: []].formUnion(statuses) }
        }
        for reply in ErrorCatalog.replies {
            for span in ErrorCatalog.codeSpans(in: reply.description) where ErrorCatalog.entry(ErrorCode(span)) != nil {
                named[ErrorCode(span), default: []].insert(reply.status)
            }
        }
        for entry in ErrorCatalog.entries where entry.sender == .server {
            #expect(named[entry.code] == Set(entry.statuses), "`\(entry.code)`: the catalog says \(entry.statuses.sorted()), the table's replies \((named[entry.code] ?? []).sorted())")
        }
        #expect(named[.emailTaken] == nil, "the server never sends `email_taken`")
    }

    @Test("every constant of ErrorCode and FieldErrorCode is in the catalog, and the catalog holds no other code")
    func everyConstantIsCatalogued() throws {
        let constants = try Self.constants("ErrorCode")
        #expect(constants.count >= 40)
        #expect(Set(constants.values) == Set(ErrorCatalog.entries.map(\.code.rawValue)))
        let fieldConstants = try Self.constants("FieldErrorCode")
        #expect(Set(fieldConstants.values) == Set(ErrorCatalog.fieldEntries.map(\.code.rawValue)))
        for entry in ErrorCatalog.entries {
            #expect(!entry.title.en.isEmpty && !entry.title.ko.isEmpty && !entry.detail.en.isEmpty && !entry.detail.ko.isEmpty, "`\(entry.code)`")
            #expect(entry.doc.count > 10, "`\(entry.code)` has no doc line")
        }
    }

    @Test("every error the server's sources make has a catalogued code and one of its statuses")
    func everyThrownCodeIsCatalogued() throws {
        let constants = try Self.constants("ErrorCode")
        let files = try ["Sources/AccountCore", "Sources/AccountServer"].flatMap { path in
            try #require(FileManager.default.enumerator(at: PackageFiles.url(path), includingPropertiesForKeys: nil)?.allObjects as? [URL])
        }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        // `APIError(403, .invalidCredentials` (the status may be a variable) and `APIError(.notFound` / `APIError(.passkeyInvalid, status: 401`.
        let explicit = try Regex(#"APIError\(\s*(\w+),\s*\.(\w+)"#)
        let catalogued = try Regex(#"APIError\(\s*\.(\w+)(?:,\s*status:\s*(\d+))?"#)
        var seen = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.lastPathComponent
            #expect(!text.contains("ErrorCode(\""), "\(name) spells a code instead of using a constant")
            for match in text.matches(of: explicit) {
                seen += 1
                let (status, constant) = (match.output[1].substring.map(String.init), match.output[2].substring.map(String.init))
                try check(constant, status: status.flatMap { Int($0) }, in: name, constants: constants)
            }
            for match in text.matches(of: catalogued) {
                seen += 1
                try check(match.output[1].substring.map(String.init), status: match.output[2].substring.flatMap { Int($0) }, in: name, constants: constants)
            }
        }
        #expect(seen > 40, "only \(seen) errors found in the sources")
    }

    /// Checks one error of the sources: `.constant` (an ErrorCode constant) with `status`, if it names one.
    private func check(_ constant: String?, status: Int?, in file: String, constants: [String: String]) throws {
        let constant = try #require(constant)
        let wire = try #require(constants[constant], "\(file): `.\(constant)` is no ErrorCode constant")
        let entry = try #require(ErrorCatalog.entry(ErrorCode(wire)), "\(file): `\(wire)` is not in the catalog")
        #expect(entry.sender == .server, "\(file): `\(wire)` is the SDK's own")
        if let status { #expect(entry.statuses.contains(status), "\(file): `\(wire)` with \(status), the catalog says \(entry.statuses)") }
    }

    @Test("the HTTP layer's refusals and the token errors answer catalogued codes with their statuses")
    func refusalsAreCatalogued() {
        let refusals: [HTTPRefusal] = [
            .malformed(.framing), .malformed(.host), .malformed(.contentLength), .malformed(.target), .requestTimeout,
            .lengthRequired, .payloadTooLarge, .uriTooLong, .headerFieldsTooLarge, .versionNotSupported,
        ]
        let errors = refusals.map(APIError.refusal) + [APIError(TokenError.expired), APIError(TokenError.badSignature)]
        for error in errors {
            let entry = ErrorCatalog.entry(error.code)
            #expect(entry?.statuses.contains(error.status) == true, "\(error.code) \(error.status)")
        }
    }

    @Test("the console's endpoint states the policy the console is served under")
    func consolePolicy() {
        #expect(Endpoint.consolePage.details?.contains("`Content-Security-Policy: \(ConsoleAssets.contentSecurityPolicy)`") == true)
    }

    /// The constants of `type` (`ErrorCode`) by Swift name, with their wire text, as its source declares them.
    static func constants(_ type: String) throws -> [String: String] {
        let text = try String(contentsOf: PackageFiles.url("Sources/AccountAPI/\(type).swift"), encoding: .utf8)
        let declaration = try Regex(#"public static let (\w+) = "# + type + #"\("(\w+)"\)"#)
        var constants: [String: String] = [:]
        for match in text.matches(of: declaration) {
            if let name = match.output[1].substring, let wire = match.output[2].substring { constants[String(name)] = String(wire) }
        }
        return constants
    }
}
