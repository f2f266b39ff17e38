import AccountCore
import Foundation

/// What `account-server` was asked to do.
public enum ServerCommand: Equatable, Sendable {
    case serve(ServerConfiguration)
    case migrate(ServerConfiguration)
    case rotateKeys(ServerConfiguration)
    /// Puts a sealed database's secrets back in clear (`keys unseal`).
    case unsealSecrets(ServerConfiguration)
    /// Writes a new secret key file (`keys generate-secret-key PATH`).
    case generateSecretKey(path: String)
    /// `admin grant|revoke NICKNAME`, `admin list`: the operators of the console.
    case admin(AdminCommand, ServerConfiguration)
    case help
}

/// An `account-server admin …` command: what to do, and who the audit log names.
public struct AdminCommand: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case grant(nickname: String)
        case revoke(nickname: String)
        case list
        /// `admin users search|show|<action> …`: the accounts, as the admin API sees them.
        case users(AdminUsersCommand)
    }
    public var action: Action
    /// `--actor`: who the audit log names instead of the OS user running the command.
    public var actor: String?
    /// `--reason`: kept with the audit event.
    public var reason: String?

    static let usage = "usage: account-server admin grant|revoke NICKNAME [--reason TEXT] [--actor NAME] [options], admin list [options], "
        + "or admin users search|show|disable|enable|end-sessions|resend-verification|remove-second-factor|delete … (see --help)"

    /// Takes the action, its nickname and `--actor`/`--reason` out of `rest`, leaving the options.
    static func parse(_ rest: inout ArraySlice<String>) throws -> AdminCommand {
        guard let verb = rest.first else { throw CommandLineError(description: usage) }
        rest = rest.dropFirst()
        var command: AdminCommand
        switch verb {
        case "list": command = AdminCommand(action: .list)
        case "grant", "revoke":
            guard let nickname = rest.first, !nickname.hasPrefix("-"), !nickname.isEmpty else { throw CommandLineError(description: usage) }
            rest = rest.dropFirst()
            command = AdminCommand(action: verb == "grant" ? .grant(nickname: nickname) : .revoke(nickname: nickname))
        case "users": command = AdminCommand(action: .users(try AdminUsersCommand.parse(&rest)))
        default: throw CommandLineError(description: usage)
        }
        var options: [String] = []
        while let argument = rest.first {
            rest = rest.dropFirst()
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if argument == "--json", case .users(var users) = command.action {
                users.json = true
                command.action = .users(users)
                continue
            }
            let filter = if case .users = command.action { AdminUsersCommand.filterFlags[name] } else { String?.none }
            guard name == "--actor" || name == "--reason" || filter != nil else {
                options.append(argument)
                continue
            }
            var value: String
            if let equals = argument.firstIndex(of: "=") {
                value = String(argument[argument.index(after: equals)...])
            } else {
                guard let next = rest.first else { throw CommandLineError(description: "\(name) needs a value") }
                value = next
                rest = rest.dropFirst()
            }
            value = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty, value.count <= 500, !value.contains(where: { $0.isNewline }) else {
                throw CommandLineError(description: "\(name) needs a one-line text of 1 to 500 characters")
            }
            if let filter, case .users(var users) = command.action {
                users.filters[filter] = value
                command.action = .users(users)
            } else if name == "--actor" { command.actor = value } else { command.reason = value }
        }
        if case .users(let users) = command.action { try users.check(reason: command.reason) }
        rest = options[...]
        return command
    }
}

/// A command-line mistake, with the message to print.
public struct CommandLineError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// Parses `account-server [serve|migrate|keys rotate|keys unseal] [--option value]…` and
/// `account-server keys generate-secret-key PATH`, with environment twins.
///
/// Every option `--some-name` may also come from `ACCOUNT_SOME_NAME`; the flag wins.
public enum ServerCommandLine {
    /// One option: its flag, whether it takes a value, and how it sets the configuration.
    struct Option: Sendable {
        let name: String
        let help: String
        let apply: @Sendable (inout ServerConfiguration, String?) throws -> Void
        var takesValue = true
    }

    static let options: [Option] = [
        Option(name: "host", help: "address to listen on (default 127.0.0.1)") { $0.host = $1! },
        Option(name: "port", help: "port; 0 picks a free one and prints it (default 8000)") { $0.port = try int($1!, "port", 0...65535) },
        Option(name: "database-url", help: "sqlite:PATH or postgres://user:pass@host:port/db (default sqlite:account.sqlite)") { $0.databaseURL = $1! },
        Option(name: "mail", help: "console (default), file:///dir, smtp://[user:pass@]host:port or smtps://…") { $0.mail = $1! },
        Option(name: "mail-from", help: "From address of mail (default MBTI Playground <no-reply@localhost>)") { $0.mailFrom = $1! },
        Option(name: "issuer", help: "iss of access tokens (default http://localhost:8000)") { $0.issuer = $1! },
        Option(name: "audience", help: "aud of access tokens (default: the issuer)") { $0.audience = $1! },
        Option(name: "access-ttl", help: "access token lifetime in seconds (default 900)") { $0.accessTTL = try int($1!, "access-ttl", 1...86400) },
        Option(name: "session-idle-ttl", help: "seconds a session lives unused (default 30 days)") { $0.sessionIdleTTL = try int($1!, "session-idle-ttl", 60...Int(Int32.max)) },
        Option(name: "session-max-ttl", help: "seconds a session lives at most (default 90 days)") { $0.sessionMaxTTL = try int($1!, "session-max-ttl", 60...Int(Int32.max)) },
        Option(name: "refresh-grace", help: "seconds a used refresh token may come again and get the same pair (default 10)") { $0.refreshGrace = try int($1!, "refresh-grace", 0...300) },
        Option(name: "allow-unverified-login", help: "let unverified accounts log in", apply: { $0.allowUnverifiedLogin = try bool($1) }, takesValue: false),
        Option(name: "ip-rate-limit", help: "auth requests per minute per client address; 0 turns it off (default 100)") { $0.ipRateLimit = try int($1!, "ip-rate-limit", 0...Int(Int32.max)) },
        Option(name: "login-attempts", help: "failed logins per account in the window before back-off; 0 turns it off (default 5)") { $0.loginAttempts = try int($1!, "login-attempts", 0...1000) },
        Option(name: "login-window", help: "seconds in which failed logins count; also the back-off cap (default 900)") { $0.loginWindow = try int($1!, "login-window", 1...86400) },
        Option(name: "ip-rate-limit-store", help: "memory or database: where per-address counts live (default: database for PostgreSQL)") {
            switch $1! {
            case "memory": $0.addressLimitShared = false
            case "database": $0.addressLimitShared = true
            default: throw CommandLineError(description: "--ip-rate-limit-store must be memory or database")
            }
        },
        Option(name: "database-pool", help: "database connections for PostgreSQL (default 8)") { $0.databasePool = try int($1!, "database-pool", 1...512) },
        Option(name: "trusted-proxy", help: "peer address whose X-Forwarded-For is believed (repeatable, comma-separated)") {
            $0.trustedProxies += $1!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        },
        Option(name: "http-threads", help: "HTTP worker threads (default: cores)") { $0.httpThreads = try int($1!, "http-threads", 1...256) },
        Option(name: "hash-threads", help: "password hashing threads (default: cores)") { $0.hashThreads = try int($1!, "hash-threads", 1...256) },
        Option(name: "hash-memory", help: "Argon2id memory in KiB (default 19456)") { $0.hashMemory = try int($1!, "hash-memory", 8...4_194_304) * 1024 },
        Option(name: "hash-passes", help: "Argon2id passes (default 2)") { $0.hashPasses = try int($1!, "hash-passes", 1...64) },
        Option(name: "clock-file", help: "for tests: a file with seconds the server's clock runs ahead") { $0.clockFile = $1! },
        Option(name: "access-log", help: "one JSON line per request on stderr: on or off (default on)") { $0.accessLog = try bool($1) },
        Option(name: "secret-key-file", help: "file of the 32-byte key that seals signing keys and HMAC keys in the database") { $0.secretKeyFile = $1! },
        Option(name: "mail-interval", help: "seconds between two messages to one address; also the code resend cooldown (default 60)") { $0.mailInterval = try int($1!, "mail-interval", 0...86400) },
        Option(name: "mail-per-hour", help: "messages to one address per hour, every kind together; 0 turns it off (default 5)") { $0.mailsPerHour = try int($1!, "mail-per-hour", 0...10000) },
        Option(name: "max-connections-per-address", help: "connections one client address may hold open; 0 turns the cap off (default 64)") {
            $0.maxConnectionsPerAddress = try int($1!, "max-connections-per-address", 0...1_000_000)
        },
        Option(name: "header-timeout", help: "seconds a request head may take from its first byte, in all (default 10)") {
            $0.headerTimeout = try int($1!, "header-timeout", 1...300)
        },
        Option(name: "totp-issuer", help: "name authenticator apps show for this service (default MBTI Playground)") { $0.totpIssuer = $1! },
        Option(name: "webauthn-rp-id", help: "domain passkeys are made for, the origins' host or a parent of it (default: the issuer's host)") {
            $0.webAuthnRPID = try webAuthnRPID($1!)
        },
        Option(name: "webauthn-origin", help: "origin passkey ceremonies may run on, https://host[:port] or android:apk-key-hash:… (repeatable; default: the issuer's)") {
            $0.webAuthnOrigins += try $1!.split(separator: ",").map { try webAuthnOrigin($0.trimmingCharacters(in: .whitespaces)) }
        },
        Option(name: "webauthn-rp-name", help: "name authenticators show for this service (default MBTI Playground)") { $0.webAuthnRPName = $1! },
        Option(name: "apple-app-id", help: "TEAMID.bundle.id of an iOS app that may use this domain's passkeys (repeatable)") {
            $0.appleAppIDs += try $1!.split(separator: ",").map { try appleAppID($0.trimmingCharacters(in: .whitespaces)) }
        },
        Option(name: "verify-sign-in-window", help: "seconds after a sign-up in which verifying its code may sign in (sign_in: true); 0 turns it off (default 1800)") { $0.verifySignInWindow = try int($1!, "verify-sign-in-window", 0...86400) },
        Option(name: "read-model", help: "answer authentication from sessions and accounts held in memory (on PostgreSQL while change notifications are caught up): on or off (default on)") { $0.readModel = try bool($1) },
        Option(name: "read-model-entries", help: "sessions the read model holds at most (default 10000)") {
            $0.readModelEntries = try int($1!, "read-model-entries", 1...10_000_000)
        },
        Option(name: "read-model-freshness", help: "PostgreSQL: answer from memory after a round trip through the change notifications (exact) or at once while they are caught up (notified) (default exact)") {
            guard let value = $1, ["exact", "notified"].contains(value) else {
                throw CommandLineError(description: "--read-model-freshness must be exact or notified")
            }
            $0.readModelFreshness = value
        },
        Option(name: "apple-client-id", help: "bundle id (or Services ID) Apple identity tokens may be issued to; turns on Sign in with Apple (repeatable)") {
            $0.appleClientIDs += try $1!.split(separator: ",").map { try appleClientID($0.trimmingCharacters(in: .whitespaces)) }
        },
        Option(name: "apple-jwks-url", help: "Apple's public keys (default https://appleid.apple.com/auth/keys)") { $0.appleJWKSURL = try webURL($1!, "apple-jwks-url") },
        Option(name: "apple-token-url", help: "Apple's token endpoint (default https://appleid.apple.com/auth/token)") { $0.appleTokenURL = try webURL($1!, "apple-token-url") },
        Option(name: "apple-revoke-url", help: "Apple's revoke endpoint (default https://appleid.apple.com/auth/revoke)") { $0.appleRevokeURL = try webURL($1!, "apple-revoke-url") },
        Option(name: "apple-key-file", help: "Apple's .p8 key (PKCS #8 P-256) that signs the client secret, to keep and revoke grants") { $0.appleKeyFile = $1! },
        Option(name: "apple-key-id", help: "the 10-character id of the --apple-key-file key") { $0.appleKeyID = try appleTeamOrKeyID($1!, "apple-key-id") },
        Option(name: "apple-team-id", help: "the 10-character Apple team id the key belongs to") { $0.appleTeamID = try appleTeamOrKeyID($1!, "apple-team-id") },
    ]

    /// Parses `arguments` (without the program name) with `environment` as fallback.
    public static func parse(_ arguments: [String], environment: [String: String]) throws -> ServerCommand {
        var rest = arguments[...]
        var verb = "serve"
        if let first = rest.first, !first.hasPrefix("-") {
            verb = first
            rest = rest.dropFirst()
            if verb == "keys" {
                guard let action = rest.first, ["rotate", "unseal", "generate-secret-key"].contains(action) else {
                    throw CommandLineError(description: "usage: account-server keys rotate|unseal [options], or keys generate-secret-key PATH")
                }
                verb = "keys " + action
                rest = rest.dropFirst()
                if action == "generate-secret-key" {
                    guard let path = rest.first, !path.hasPrefix("-"), rest.count == 1 else {
                        throw CommandLineError(description: "usage: account-server keys generate-secret-key PATH")
                    }
                    return .generateSecretKey(path: path)
                }
            }
        }
        if rest.contains("--help") || rest.contains("-h") || verb == "help" { return .help }
        let admin = verb == "admin" ? try AdminCommand.parse(&rest) : nil

        var configuration = ServerConfiguration()
        for option in options {
            let variable = "ACCOUNT_" + option.name.uppercased().replacingOccurrences(of: "-", with: "_")
            if let value = environment[variable], !value.isEmpty {
                try option.apply(&configuration, value)
            }
        }
        while let argument = rest.first {
            rest = rest.dropFirst()
            guard argument.hasPrefix("--") else { throw CommandLineError(description: "unexpected argument: \(argument)") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw CommandLineError(description: "unknown option --\(name) (see account-server --help)")
            }
            if option.takesValue, value == nil {
                guard let next = rest.first else { throw CommandLineError(description: "--\(name) needs a value") }
                value = next
                rest = rest.dropFirst()
            }
            try option.apply(&configuration, option.takesValue ? value : (value ?? "true"))
        }
        try checkWebAuthn(configuration)
        try checkApple(configuration)
        switch verb {
        case "serve": return .serve(configuration)
        case "migrate": return .migrate(configuration)
        case "keys rotate": return .rotateKeys(configuration)
        case "keys unseal": return .unsealSecrets(configuration)
        case "admin": return .admin(admin!, configuration)
        default: throw CommandLineError(description: "unknown command \(verb) (serve, migrate, keys rotate, keys unseal, keys generate-secret-key, admin)")
        }
    }

    /// The text of `--help`.
    public static var helpText: String {
        var lines = [
            "usage: account-server [serve|migrate|keys rotate|keys unseal] [options]",
            "       account-server keys generate-secret-key PATH",
            "",
            "  serve        start the API (the default)",
            "  migrate      apply database migrations and exit",
            "  keys rotate  add a signing key that signs from now on; old keys stay in the JWKS until their tokens expire",
            "  keys unseal  put secrets sealed with --secret-key-file back in clear (stop every server first)",
            "  keys generate-secret-key PATH",
            "               write a new random key for --secret-key-file (mode 0600; never overwrites)",
            "  admin grant|revoke NICKNAME [--reason TEXT] [--actor NAME]",
            "               give or take the operators' console role (an audit event; --actor defaults to the OS user)",
            "  admin list   the accounts with the role",
            "  admin users search [TEXT] [--verified true|false] [--mfa true|false] [--disabled true|false]",
            "                     [--created-after TIME] [--created-before TIME] [--limit N] [--after CURSOR] [--json]",
            "               accounts newest first, or by nickname (address) with TEXT, a nickname prefix (an address",
            "               prefix when it holds @); --json prints the admin API's JSON page",
            "  admin users show ACCOUNT [--json]",
            "               one account with its sessions, passkeys and second factor (ACCOUNT: id, nickname or address)",
            "  admin users disable|enable|end-sessions|resend-verification|remove-second-factor|delete ACCOUNT --reason TEXT [--actor NAME]",
            "               what the console's account page does, each an audit event (actor cli:<OS user>, or --actor)",
            "",
            "options (each also read from ACCOUNT_<NAME>, e.g. ACCOUNT_DATABASE_URL; the flag wins):",
        ]
        for option in options {
            let flag = "--" + option.name + (option.takesValue ? " VALUE" : "")
            lines.append("  " + flag.padding(toLength: 30, withPad: " ", startingAt: 0) + option.help)
        }
        return lines.joined(separator: "\n")
    }

    private static func int(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw CommandLineError(description: "--\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    /// A lower-case domain name (`example.com`, `localhost`): what WebAuthn takes as an RP id.
    private static func webAuthnRPID(_ text: String) throws -> String {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.count <= 253, !labels.isEmpty, labels.allSatisfy({ label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
        }) else {
            throw CommandLineError(description: "--webauthn-rp-id must be a lower-case domain name such as example.com, not \"\(text)\"")
        }
        return text
    }

    /// An origin as a client writes it: `https://host[:port]` (`http://` only for localhost), or
    /// an Android app's `android:apk-key-hash:…`.
    private static func webAuthnOrigin(_ text: String) throws -> String {
        if text.hasPrefix("android:apk-key-hash:"), text.count > 21 { return text }
        guard let url = URLComponents(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty,
            url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil,
            scheme == "https" || (scheme == "http" && (host == "localhost" || host.hasSuffix(".localhost"))),
            text == scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
        else {
            throw CommandLineError(description: "--webauthn-origin must be https://host[:port] (http:// only for localhost), with no path, not \"\(text)\"")
        }
        return text
    }

    /// Every web origin's host is the RP id or under it (WebAuthn §5.1.3 would refuse it in the
    /// browser anyway; said at start rather than at the first ceremony).
    private static func checkWebAuthn(_ configuration: ServerConfiguration) throws {
        let id = configuration.effectiveWebAuthnRPID
        for origin in configuration.effectiveWebAuthnOrigins where !origin.hasPrefix("android:") {
            guard let host = URLComponents(string: origin)?.host, host == id || host.hasSuffix("." + id) else {
                throw CommandLineError(description: "--webauthn-origin \(origin) is not on the RP id \(id) or a subdomain of it (see --webauthn-rp-id)")
            }
        }
    }

    /// `TEAMID.bundle.id`: a 10-character team id, a dot, a bundle id.
    private static func appleAppID(_ text: String) throws -> String {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10, parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
            parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }), !parts[1].isEmpty
        else {
            throw CommandLineError(description: "--apple-app-id must be TEAMID.bundle.id (a 10-character team id), not \"\(text)\"")
        }
        return text
    }

    /// A bundle id or Services ID: letters, digits, dots and hyphens.
    private static func appleClientID(_ text: String) throws -> String {
        guard !text.isEmpty, text.count <= 255, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
            throw CommandLineError(description: "--apple-client-id must be a bundle id such as com.example.app, not \"\(text)\"")
        }
        return text
    }

    /// Apple's team and key ids: 10 upper-case letters and digits.
    private static func appleTeamOrKeyID(_ text: String, _ name: String) throws -> String {
        guard text.count == 10, text.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw CommandLineError(description: "--\(name) must be 10 upper-case letters and digits, not \"\(text)\"")
        }
        return text
    }

    /// An `https://` URL (`http://` only for a loopback host, as tests run their own Apple).
    private static func webURL(_ text: String, _ name: String) throws -> String {
        guard let url = URLComponents(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty, url.user == nil,
            scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host))
        else {
            throw CommandLineError(description: "--\(name) must be an https:// URL (http:// only for localhost), not \"\(text)\"")
        }
        return text
    }

    /// The key file, its id and the team come together, and only with a client id.
    private static func checkApple(_ configuration: ServerConfiguration) throws {
        let given = [configuration.appleKeyFile != nil, configuration.appleKeyID != nil, configuration.appleTeamID != nil]
        guard given.allSatisfy({ $0 }) || given.allSatisfy({ !$0 }) else {
            throw CommandLineError(description: "--apple-key-file, --apple-key-id and --apple-team-id go together: give all three or none")
        }
        if given[0] && configuration.appleClientIDs.isEmpty {
            throw CommandLineError(description: "--apple-key-file needs --apple-client-id (the bundle ids of the apps)")
        }
    }

    private static func bool(_ text: String?) throws -> Bool {
        switch (text ?? "true").lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw CommandLineError(description: "expected on or off, not \"\(text ?? "")\"")
        }
    }
}
