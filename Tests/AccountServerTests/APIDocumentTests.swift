import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// `docs/API.md` and the contract table in AccountAPI (``Endpoint/all``, ``ErrorCatalog``), of
/// which `/openapi.json` is made, describe the same API: the same operations and the same error
/// codes, each found in the other, each code's row the catalog's. API.md states the rules this
/// reads at its top.
@Suite("docs/API.md and the contract table document the same API")
struct APIDocumentTests {
    @Test("every endpoint of the table has its heading in docs/API.md, and every heading is an endpoint")
    func operations() throws {
        let contract = try ContractDocument.read()
        let table = Set(Endpoint.all.map(\.route))
        #expect(table.count >= 20, "the table lists only \(table.count) endpoints")
        #expect(contract.operations.count >= 20, "docs/API.md has only \(contract.operations.count) operation headings")
        for operation in table.subtracting(contract.operations).sorted() {
            Issue.record("\(operation) is in the contract table but has no `### \\`\(operation)\\`` heading in docs/API.md")
        }
        for operation in contract.operations.subtracting(table).sorted() {
            Issue.record("\(operation) has a heading in docs/API.md but is not in the contract table")
        }
        #expect(contract.duplicateOperations.isEmpty, "operations with two headings in docs/API.md: \(contract.duplicateOperations)")
    }

    @Test("every error code and field error code of the catalog is in docs/API.md's tables, and every code there is in the catalog")
    func codes() throws {
        let contract = try ContractDocument.read()
        let tables = [
            ("error code", "## Error codes", contract.errorCodes, Set(ErrorCatalog.serverCodes.map(\.rawValue)), 20),
            ("field error code", "## Field error codes", contract.fieldErrorCodes, Set(ErrorCatalog.fieldEntries.map(\.code.rawValue)), 9),
        ]
        for (what, table, documented, listed, fewest) in tables {
            #expect(listed.count >= fewest, "the catalog lists only \(listed.count) \(what)s")
            let documentedSet = Set(documented)
            for code in listed.subtracting(documentedSet).sorted() {
                Issue.record("\(what) `\(code)` is in the catalog but not in docs/API.md's \(table) table")
            }
            for code in documentedSet.subtracting(listed).sorted() {
                Issue.record("\(what) `\(code)` is in docs/API.md's \(table) table but not in the catalog")
            }
            let repeated = Dictionary(grouping: documented, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            #expect(repeated.isEmpty, "\(what)s listed twice in docs/API.md: \(repeated)")
        }
    }

    @Test("each error code has in docs/API.md the statuses of the catalog")
    func statuses() throws {
        let contract = try ContractDocument.read()
        for entry in ErrorCatalog.entries where entry.sender == .server {
            let documented = contract.errorStatuses[entry.code.rawValue] ?? []
            #expect(documented == Set(entry.statuses), "`\(entry.code)`: docs/API.md says \(documented.sorted()), the catalog \(entry.statuses.sorted())")
        }
    }

    @Test("each row of docs/API.md's code tables is the catalog's entry, word for word")
    func rows() throws {
        let contract = try ContractDocument.read()
        for entry in ErrorCatalog.entries where entry.sender == .server {
            #expect(contract.rows[entry.code.rawValue] == ContractDocument.row(entry), "`\(entry.code)`")
        }
        for entry in ErrorCatalog.fieldEntries {
            #expect(contract.rows[entry.code.rawValue] == "| `\(entry.code)` | \(entry.doc) |", "`\(entry.code)`")
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
        #expect(parsed.rows["too_short"] == "| `too_short` | shorter |")
        #expect(parsed.rows["password_hash_queue_length"] == nil)
    }

    @Test("a catalog row says its statuses as API.md does")
    func rowShape() throws {
        let entry = try #require(ErrorCatalog.entry(.passkeyInvalid))
        #expect(ContractDocument.row(entry).hasPrefix("| `passkey_invalid` | 400, 401 or 403 | "))
        let single = try #require(ErrorCatalog.entry(.rateLimited))
        #expect(ContractDocument.row(single).hasPrefix("| `rate_limited` | 429 | "))
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
    /// Each code's whole table row.
    private(set) var rows: [String: String] = [:]

    var operations: Set<String> { Set(operationList) }
    var duplicateOperations: [String] {
        Dictionary(grouping: operationList, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    }

    static let url = PackageFiles.url("docs/API.md")

    static func read() throws -> ContractDocument {
        ContractDocument(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// The row of `entry` in the `## Error codes` table: `| `code` | 401 or 403 | doc |`.
    static func row(_ entry: ErrorCatalog.Entry) -> String {
        let statuses = entry.statuses.sorted().map(String.init)
        let said = statuses.count == 1 ? statuses[0] : statuses.dropLast().joined(separator: ", ") + " or " + statuses[statuses.count - 1]
        return "| `\(entry.code)` | \(said) | \(entry.doc) |"
    }

    /// The texts between pairs of backticks.
    static func codeSpans(in line: String) -> [String] { ErrorCatalog.codeSpans(in: line) }

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
                    rows[first] = line
                    let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                    errorStatuses[first] = Set(cells[2].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) })
                }
                if section == "## Field error codes" {
                    fieldErrorCodes.append(first)
                    rows[first] = line
                }
            }
        }
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
