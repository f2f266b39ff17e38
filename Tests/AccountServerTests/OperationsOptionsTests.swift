import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// docs/OPERATIONS.md's option table is the server's command line: every option `account-server` knows is a
/// row, no row names an option it does not know, and a default the table states is the default.
@Suite("docs/OPERATIONS.md's option table matches the server's options")
struct OperationsOptionsTests {
    @Test("every option of the command line is in the table, and every option in the table is real")
    func sameOptions() throws {
        let table = try OptionTable.read()
        let known = Set(ServerCommandLine.options.map(\.name))
        let documented = table.rows.flatMap(\.options)
        #expect(documented.count >= 20, "the table lists only \(documented.count) options")
        for name in known.subtracting(documented).sorted() {
            Issue.record("--\(name) is an option of account-server but has no row in docs/OPERATIONS.md's option table")
        }
        for name in Set(documented).subtracting(known).sorted() {
            Issue.record("docs/OPERATIONS.md's option table lists --\(name), which account-server does not know")
        }
        let repeated = Dictionary(grouping: documented, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "options listed twice: \(repeated)")
        for name in known {
            #expect(ServerCommandLine.helpText.contains("--\(name)"), "--help does not list --\(name)")
        }
    }

    @Test("a default the table gives in code is the server's default")
    func defaults() throws {
        let table = try OptionTable.read()
        var checked = 0
        for row in table.rows where row.defaults.count == row.options.count {
            for (name, value) in zip(row.options, row.defaults) {
                let given = try ServerCommandLine.parse(["serve", "--\(name)", value], environment: [:])
                #expect(given == .serve(ServerConfiguration()), "--\(name) \(value), docs/OPERATIONS.md's default, is not the server's default")
                checked += 1
            }
        }
        #expect(checked >= 15, "only \(checked) defaults could be checked")
    }

    @Test("the table parser reads option names and code defaults from the first two cells")
    func parser() {
        let table = OptionTable(text: """
            ## Configuration

            | option | default | meaning |
            |---|---|---|
            | `--host` | `127.0.0.1` | address (not `--port`) |
            | `--login-attempts`, `--login-window` | `5`, `900` | back-off |
            | `--http-threads` | cores | threads |

            | other | table |
            |---|---|
            | `--not-an-option` | x |
            """)
        #expect(table.rows.map(\.options) == [["host"], ["login-attempts", "login-window"], ["http-threads"]])
        #expect(table.rows.map(\.defaults) == [["127.0.0.1"], ["5", "900"], []])
    }
}

/// The first table of docs/OPERATIONS.md whose header starts with `| option |`: in each row, the options
/// are the `--name` code spans of the first cell and the defaults the code spans of the second.
struct OptionTable {
    struct Row: Equatable {
        let options: [String]
        let defaults: [String]
    }

    private(set) var rows: [Row] = []

    static func read() throws -> OptionTable {
        OptionTable(text: try String(contentsOf: PackageFiles.url("docs/OPERATIONS.md"), encoding: .utf8))
    }

    init(text: String) {
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inTable {
                inTable = rows.isEmpty && trimmed.hasPrefix("| option |")
                continue
            }
            guard trimmed.hasPrefix("|") else { break }
            let cells = trimmed.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard cells.count > 3, !cells[1].contains("---") else { continue }
            let options = ContractDocument.codeSpans(in: cells[1]).filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
            rows.append(Row(options: options, defaults: ContractDocument.codeSpans(in: cells[2])))
        }
    }
}
