import Foundation
import TestSupport
import Testing
@testable import AccountServer

/// `docs/API.md` and the served `/openapi.json` describe the same API: the same operations and
/// the same error codes, each found in the other. API.md states the rules this reads at its top.
@Suite("docs/API.md and /openapi.json document the same API")
struct APIDocumentTests {
    @Test("every operation of /openapi.json has its heading in docs/API.md, and every heading is an operation")
    func operations() async throws {
        let contract = try ContractDocument.read()
        let served = try await ServedDocument.fetch()
        #expect(served.operations.count >= 20, "openapi.json lists only \(served.operations.count) operations")
        #expect(contract.operations.count >= 20, "docs/API.md has only \(contract.operations.count) operation headings")
        for operation in served.operations.subtracting(contract.operations).sorted() {
            Issue.record("\(operation) is in /openapi.json but has no `### \\`\(operation)\\`` heading in docs/API.md")
        }
        for operation in contract.operations.subtracting(served.operations).sorted() {
            Issue.record("\(operation) has a heading in docs/API.md but is not in /openapi.json")
        }
        #expect(contract.duplicateOperations.isEmpty, "operations with two headings in docs/API.md: \(contract.duplicateOperations)")
    }

    @Test("every error code and field error code of /openapi.json is in docs/API.md's tables, and every code there is served")
    func codes() async throws {
        let contract = try ContractDocument.read()
        let served = try await ServedDocument.fetch()
        let tables = [
            ("error code", "## Error codes", contract.errorCodes, served.errorCodes, 20),
            ("field error code", "## Field error codes", contract.fieldErrorCodes, served.fieldErrorCodes, 9),
        ]
        for (what, table, documented, listed, fewest) in tables {
            #expect(listed.count >= fewest, "/openapi.json lists only \(listed.count) \(what)s")
            let documentedSet = Set(documented)
            for code in listed.subtracting(documentedSet).sorted() {
                Issue.record("\(what) `\(code)` is in /openapi.json but not in docs/API.md's \(table) table")
            }
            for code in documentedSet.subtracting(listed).sorted() {
                Issue.record("\(what) `\(code)` is in docs/API.md's \(table) table but not in /openapi.json")
            }
            let repeated = Dictionary(grouping: documented, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            #expect(repeated.isEmpty, "\(what)s listed twice in docs/API.md: \(repeated)")
        }
    }

    @Test("each error code has in docs/API.md the statuses /openapi.json answers it with")
    func statuses() async throws {
        let contract = try ContractDocument.read()
        let served = try await ServedDocument.fetch()
        for (code, statuses) in contract.errorStatuses.sorted(by: { $0.key < $1.key }) {
            let answered = served.statuses[code] ?? []
            #expect(statuses == answered, "`\(code)`: docs/API.md says \(statuses.sorted()), /openapi.json answers it with \(answered.sorted())")
        }
    }

    @Test("the parser finds what the rules say and nothing else")
    func parserRules() {
        let text = """
            ## Endpoints
            ### `POST /auth/login`
            ### `GET /auth/sessions/{id}` and more words
            ### Not an operation: `token_invalid`
            ## Error codes
            | code | status | meaning |
            |---|---|---|
            | `rate_limited` | 429 | slow down; see `Retry-After` |
            | `invalid_credentials` | 401 or 403 | … |
            ## Field error codes
            | code | meaning |
            |---|---|
            | `too_short` | shorter |
            ## Limits
            | what | limit |
            |---|---|
            | `password_hash_queue_length` | 256 |
            """
        let parsed = ContractDocument(text: text)
        #expect(parsed.operations == ["POST /auth/login", "GET /auth/sessions/{id}"])
        #expect(parsed.errorCodes == ["rate_limited", "invalid_credentials"])
        #expect(parsed.errorStatuses == ["rate_limited": [429], "invalid_credentials": [401, 403]])
        #expect(parsed.fieldErrorCodes == ["too_short"])
    }
}

/// What `docs/API.md` documents, read by the rules stated at its top: operations are level-3
/// headings holding one `` `METHOD /path` `` code span; error codes and field error codes are the
/// first cells (a code span) of the tables under `## Error codes` and `## Field error codes`, and
/// an error code's statuses are the numbers in its row's second cell.
struct ContractDocument {
    /// `METHOD /path`, in the order of the headings.
    private(set) var operationList: [String] = []
    private(set) var errorCodes: [String] = []
    private(set) var errorStatuses: [String: Set<Int>] = [:]
    private(set) var fieldErrorCodes: [String] = []

    var operations: Set<String> { Set(operationList) }
    var duplicateOperations: [String] {
        Dictionary(grouping: operationList, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    }

    static let url = PackageFiles.url("docs/API.md")

    static func read() throws -> ContractDocument {
        ContractDocument(text: try String(contentsOf: url, encoding: .utf8))
    }

    init(text: String) {
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                section = line
            } else if line.hasPrefix("### ") {
                for span in Self.codeSpans(in: line) where Self.isOperation(span) { operationList.append(span) }
            } else if line.hasPrefix("|"), let first = Self.firstCellCode(line) {
                if section == "## Error codes" {
                    errorCodes.append(first)
                    let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                    errorStatuses[first] = Set(cells[2].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) })
                }
                if section == "## Field error codes" { fieldErrorCodes.append(first) }
            }
        }
    }

    /// The texts between pairs of backticks.
    static func codeSpans(in line: String) -> [String] {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// `GET /auth/me`: an upper-case method, one space, a path.
    private static func isOperation(_ span: String) -> Bool {
        let parts = span.split(separator: " ")
        guard parts.count == 2, let method = parts.first, let path = parts.last else { return false }
        return method.allSatisfy { $0.isASCII && $0.isUppercase } && path.hasPrefix("/")
    }

    /// The code span that is the whole first cell of a table row, if it is one.
    private static func firstCellCode(_ row: String) -> String? {
        let cells = row.split(separator: "|", omittingEmptySubsequences: false)
        guard cells.count > 2 else { return nil }
        let cell = cells[1].trimmingCharacters(in: .whitespaces)
        guard cell.count > 2, cell.hasPrefix("`"), cell.hasSuffix("`") else { return nil }
        let code = String(cell.dropFirst().dropLast())
        return code.contains("`") ? nil : code
    }
}

/// What the served `/openapi.json` documents: its operations, the codes its `Problem` and
/// `FieldError` schemas list ("Known today: `a`, `b`."), and the statuses whose replies name each
/// error code (in an operation's reply or a shared one of `#/components/responses`).
struct ServedDocument {
    let operations: Set<String>
    let errorCodes: Set<String>
    let fieldErrorCodes: Set<String>
    let statuses: [String: Set<Int>]

    static func fetch() async throws -> ServedDocument {
        let harness = try await Harness.make()
        let reply = try await harness.send("GET", "/openapi.json")
        #expect(reply.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations = Set<String>()
        var replies: [(status: Int, description: String)] = []
        for (path, item) in paths {
            for (method, operation) in item {
                operations.insert("\(method.uppercased()) \(path)")
                for (status, reply) in (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:] {
                    if let status = Int(status), let description = (reply as? [String: Any])?["description"] as? String {
                        replies.append((status, description))
                    }
                }
            }
        }
        let components = try #require(document["components"] as? [String: Any])
        for (status, name) in ErrorResponses.names {
            if let description = ((components["responses"] as? [String: Any])?[name] as? [String: Any])?["description"] as? String {
                replies.append((status, description))
            }
        }
        let schemas = try #require(components["schemas"] as? [String: Any])
        func listedCodes(_ schema: String) throws -> Set<String> {
            let properties = (schemas[schema] as? [String: Any])?["properties"] as? [String: Any]
            let description = try #require((properties?["code"] as? [String: Any])?["description"] as? String, "\(schema).code has no description")
            let known = try #require(description.range(of: "Known today:"), "\(schema).code does not list its codes")
            let list = description[known.upperBound...].prefix { $0 != "." }
            return Set(ContractDocument.codeSpans(in: String(list)))
        }
        let errorCodes = try listedCodes("Problem")
        var statuses: [String: Set<Int>] = [:]
        for reply in replies {
            for code in ContractDocument.codeSpans(in: reply.description) where errorCodes.contains(code) {
                statuses[code, default: []].insert(reply.status)
            }
        }
        return ServedDocument(
            operations: operations, errorCodes: errorCodes, fieldErrorCodes: try listedCodes("FieldError"), statuses: statuses)
    }
}
