import AccountAPI
import AccountCore
import AccountStore
import Foundation

/// Runs `account-server admin …` on the database: the only way the admin role is granted or
/// revoked, and the account actions of the admin API (`admin users …`), each an audit event naming
/// the operator at the terminal.
enum AdminCommandRunner {
    /// Runs `command` on the store; prints what it did and returns the exit status (an unknown
    /// nickname throws a ``CommandLineError``, which exits 1).
    static func run(
        _ command: AdminCommand, store: any AccountStore, configuration: ServerConfiguration, environment: [String: String], now: Date = Date()
    ) async throws -> Int32 {
        switch command.action {
        case .users(let users):
            // The admin API's own code, over services that start no background work: mail it
            // queues goes out from a running server.
            let services = try await Services.forCommand(configuration: configuration, store: store)
            defer { services.passwords.pool.stop() }
            return try await AdminUsersRunner.run(users, command, services: services, environment: environment)
        case .list:
            let admins = try await store.read { tx in try tx.admins().map { ($0, try SecondFactors.held(by: $0, in: tx)) } }
            if admins.isEmpty { print("account-server: no account has the admin role") }
            for (admin, factors) in admins {
                let factor = factors.isEmpty
                    ? "no second factor (cannot use the console until one is on)"
                    : "second factor on (\(factors.joined(separator: ", ")))"
                print("\(admin.username)\t\(admin.email)\t\(admin.id.lowercasedText)\t\(factor)")
            }
            return 0
        case .grant(let nickname), .revoke(let nickname):
            let granting = if case .grant = command.action { true } else { false }
            let actor = OperatorActor.commandLine(command.actor ?? operatingSystemUser(environment))
            let key = UsernameRule.key(UsernameRule.normalize(nickname))
            let outcome = try await store.write { tx -> (UserRecord, Bool, Bool)? in
                guard let user = try tx.user(usernameKey: key) else { return nil }
                let changed = try OperatorActions.setAdmin(granting, of: user, by: actor, reason: command.reason, now: now, random: .system, in: tx)
                return (user, changed, try !SecondFactors.held(by: user, in: tx).isEmpty)
            }
            guard let (user, changed, hasSecondFactor) = outcome else {
                throw CommandLineError(description: "no account has the nickname \(nickname)")
            }
            switch (granting, changed) {
            case (true, true):
                print("account-server: \(user.username) is now an operator"
                    + (hasSecondFactor ? "" : "; the console needs a second factor, which the account has not turned on yet"))
            case (true, false): print("account-server: \(user.username) already is an operator")
            case (false, true): print("account-server: \(user.username) is no longer an operator (refused from the next request on)")
            case (false, false): print("account-server: \(user.username) is not an operator")
            }
            return 0
        }
    }

    /// What the console takes as an operator's second factor, by the name the command prints:
    /// an authenticator app (a login's `otp` or `recovery_code`) and a passkey (a passkey login's
    /// `mfa`), as the ``OperatorGate`` admits them.
    enum SecondFactors {
        /// The second factors `user` holds, empty when the console cannot be used yet.
        static func held(by user: UserRecord, in tx: any StoreTransaction) throws -> [String] {
            var factors: [String] = []
            if user.totpEnabled { factors.append("authenticator app") }
            if try tx.passkeyCount(userID: user.id) > 0 { factors.append("passkey") }
            return factors
        }
    }

    /// The login name of the user running the command (`getpwuid`), else `$USER`, else the uid.
    static func operatingSystemUser(_ environment: [String: String]) -> String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return environment["USER"] ?? "uid:\(getuid())"
    }
}
