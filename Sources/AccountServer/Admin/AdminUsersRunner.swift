import AccountAPI
import AccountCore
import AccountStore
import Foundation

/// Runs `account-server admin users …` through ``AccountAdministration``, the code the admin API
/// runs, with the operator at the terminal (`cli:<name>`) as the audit events' actor.
enum AdminUsersRunner {
    static func run(_ command: AdminUsersCommand, _ admin: AdminCommand, services: Services, environment: [String: String]) async throws -> Int32 {
        do {
            return try await perform(command, admin, services: services, environment: environment)
        } catch let error as APIError {
            throw CommandLineError(description: message(error))
        }
    }

    private static func perform(
        _ command: AdminUsersCommand, _ admin: AdminCommand, services: Services, environment: [String: String]
    ) async throws -> Int32 {
        let administration = services.accountAdministration
        let now = services.clock.now()
        switch command.verb {
        case .search:
            let query: AdminUserQuery
            let after: AdminSearchPosition?
            do {
                query = try AdminSearchQuery.parse { command.filters[$0] }
            } catch {
                throw CommandLineError(description: error.text.en)
            }
            let limit = try command.filters["limit"].map { text in
                guard let value = Int(text), (1...100).contains(value) else { throw CommandLineError(description: "--limit must be 1 to 100") }
                return value
            } ?? 50
            let afterError = CommandLineError(description: "--after must be the cursor a search of the same kind (with or without TEXT, @) printed")
            if let text = command.filters["after"] {
                guard let position = PageCursor.searchPosition(text) else { throw afterError }
                after = position
            } else {
                after = nil
            }
            if let after, !query.orders(after) { throw afterError }
            let page = try await administration.search(query, after: after, limit: limit)
            if command.json { return try printJSON(page.wire) }
            if page.rows.isEmpty { print(page.next == nil ? "account-server: no account matches" : "account-server: none in this stretch") }
            for row in page.rows { print(line(row)) }
            if let next = page.next { print("account-server: more with --after \(PageCursor.text(next))") }
            return 0
        case .show:
            let id = try await accountID(command.account ?? "", services.store)
            let account = try await administration.account(id: id, now: now)
            if command.json { return try printJSON(account.wire) }
            print(details(account))
            return 0
        case .act(let name):
            let id = try await accountID(command.account ?? "", services.store)
            let actor = OperatorActor.commandLine(admin.actor ?? AdminCommandRunner.operatingSystemUser(environment))
            let reason = admin.reason ?? ""
            switch AdminUserAction(rawValue: name)! {
            case .disable:
                let row = try await administration.disable(id, by: actor, reason: reason, now: now)
                print("account-server: \(row.user.username) is disabled; every session ended")
            case .enable:
                let row = try await administration.enable(id, by: actor, reason: reason, now: now)
                print("account-server: \(row.user.username) may sign in again")
            case .endSessions:
                let ended = try await administration.endSessions(id, by: actor, reason: reason, now: now)
                print("account-server: \(ended) session\(ended == 1 ? "" : "s") ended")
            case .resendVerification:
                try await administration.resendVerification(id, by: actor, reason: reason, language: .en, now: now)
                print("account-server: a new verification code is queued (a running server delivers it)")
            case .removeSecondFactor:
                let row = try await administration.removeSecondFactor(id, by: actor, reason: reason, language: .en, now: now)
                print("account-server: \(row.user.username) logs in with the password alone now (passkeys stay)")
            case .delete:
                try await administration.delete(id, by: actor, reason: reason, now: now)
                print("account-server: account \(id.lowercasedText) deleted")
            }
            return 0
        }
    }

    /// Prints `value` as the admin API sends it (one line), for scripts.
    private static func printJSON(_ value: some Encodable) throws -> Int32 {
        print(String(decoding: try JSONCoding.encoder.encode(value), as: UTF8.self))
        return 0
    }

    /// The account named by its id, nickname or address.
    static func accountID(_ text: String, _ store: any AccountStore) async throws -> UUID {
        let found = try await store.read { tx -> UUID? in
            if let id = UUID(uuidString: text) { return try tx.user(id: id)?.id }
            if text.contains("@") { return try tx.user(emailKey: EmailRule.key(EmailRule.normalize(text)))?.id }
            return try tx.user(usernameKey: UsernameRule.key(UsernameRule.normalize(text)))?.id
        }
        guard let found else { throw CommandLineError(description: "no account is \(text)") }
        return found
    }

    /// One search row: id, nickname, address, type, flags, created, last login.
    static func line(_ row: AdminUserRow) -> String {
        let user = row.user
        var flags = [user.emailVerified ? "verified" : "unverified"]
        if user.totpEnabled { flags.append("mfa") }
        if user.disabledAt != nil { flags.append("disabled") }
        if user.isAdmin { flags.append("admin") }
        return [
            user.id.lowercasedText, user.username, user.email, user.mbti, flags.joined(separator: ","),
            "created " + RFC3339.string(from: user.createdAt), "last login " + (row.lastLoginAt.map(RFC3339.string(from:)) ?? "never"),
        ].joined(separator: "\t")
    }

    static func details(_ account: AdminAccount) -> String {
        let user = account.row.user
        var lines = [
            line(account.row),
            "disabled: " + (user.disabledAt.map(RFC3339.string(from:)) ?? "no"),
            "second factor: " + (user.totpEnabled ? "authenticator app, \(user.recoveryCodesLeft) recovery codes left" : "none"),
            "sessions: \(account.sessions.count)",
        ]
        for session in account.sessions {
            lines.append("  \(session.id.lowercasedText)\topened \(RFC3339.string(from: session.createdAt))\tlast used "
                + "\(RFC3339.string(from: session.lastUsedAt)) from \(session.clientAddress ?? "(unknown address)")"
                + "\t\(session.userAgent ?? "(no User-Agent)")")
        }
        lines.append("passkeys: \(account.passkeys.count)")
        for passkey in account.passkeys {
            lines.append("  \(passkey.id.lowercasedText)\t\(passkey.name)\tadded \(RFC3339.string(from: passkey.createdAt))")
        }
        return lines.joined(separator: "\n")
    }

    /// What the terminal says for a refusal of the administration.
    static func message(_ error: APIError) -> String {
        switch error.code {
        case .notFound: "no such account (deleted meanwhile?)"
        case .alreadyVerified: "the account's address is verified already; no code was sent"
        case .rateLimited: "the address had a code too recently (try again in \(error.retryAfter.map(String.init) ?? "a few") seconds)"
        default: error.code.rawValue
        }
    }
}
