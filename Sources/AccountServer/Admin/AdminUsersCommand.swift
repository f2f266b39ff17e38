import AccountCore
import Foundation

/// `account-server admin users …`: the account search, one account, or an action on it.
public struct AdminUsersCommand: Equatable, Sendable {
    public enum Verb: Equatable, Sendable {
        case search
        case show
        /// One of the console's actions, by its path name (`end-sessions`).
        case act(String)
    }

    public var verb: Verb
    /// `show` and the actions: the account, by id, nickname or address.
    public var account: String?
    /// `search`: the filters, by the admin API's query names (`q`, `created_after`, `limit`, …).
    public var filters: [String: String] = [:]
    /// `--json` (`search`, `show`): print the admin API's JSON reply instead of lines.
    public var json = false

    /// The search's flags and the query names they set.
    static let filterFlags: [String: String] = [
        "--verified": "verified", "--mfa": "mfa", "--disabled": "disabled", "--created-after": "created_after",
        "--created-before": "created_before", "--limit": "limit", "--after": "after",
    ]

    static let usage = "usage: account-server admin users search [TEXT] [--verified|--mfa|--disabled true|false] "
        + "[--created-after TIME] [--created-before TIME] [--limit N] [--after CURSOR] [--json], admin users show ACCOUNT [--json], or "
        + "admin users disable|enable|end-sessions|resend-verification|remove-second-factor|delete ACCOUNT --reason TEXT"

    /// Takes the verb and its account (or search text) out of `rest`; the flags stay for the caller.
    static func parse(_ rest: inout ArraySlice<String>) throws -> AdminUsersCommand {
        guard let verbText = rest.first else { throw CommandLineError(description: Self.usage) }
        rest = rest.dropFirst()
        let verb: Verb
        switch verbText {
        case "search": verb = .search
        case "show": verb = .show
        case let name where AdminUserAction(rawValue: name) != nil: verb = .act(name)
        default: throw CommandLineError(description: usage)
        }
        var command = AdminUsersCommand(verb: verb)
        let positional = rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
        if positional != nil { rest = rest.dropFirst() }
        if verb == .search {
            if let positional { command.filters["q"] = positional }
        } else {
            guard let positional, !positional.isEmpty else { throw CommandLineError(description: Self.usage) }
            command.account = positional
        }
        return command
    }

    /// An action needs its reason; `--reason` and the search's flags only go with their verbs.
    func check(reason: String?) throws {
        switch verb {
        case .act(let name):
            guard reason != nil else { throw CommandLineError(description: "admin users \(name) needs --reason TEXT (kept in the audit log)") }
            guard filters.isEmpty, !json else { throw CommandLineError(description: Self.usage) }
        case .show:
            guard filters.isEmpty else { throw CommandLineError(description: Self.usage) }
        case .search: break
        }
    }
}
