// swift-tools-version: 6.0
import PackageDescription

/// One package: the shared wire module, the server and its parts, the client SDK (AccountKit), its
/// SwiftUI screens (AccountUI) and the terminal client (account).
/// Client-side targets (`AccountAPI`, `AccountKit`, `AccountUI`) never depend on a C library.
let package = Package(
    name: "MBTIPlayground",
    defaultLocalization: "en",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "AccountAPI", targets: ["AccountAPI"]),
        .library(name: "AccountKit", targets: ["AccountKit"]),
        .library(name: "AccountUI", targets: ["AccountUI"]),
        .executable(name: "account-server", targets: ["account-server"]),
        .executable(name: "account", targets: ["account"]),
    ],
    targets: [
        // C libraries from the system (Debian -dev packages or Homebrew).
        // epoll and eventfd for the HTTP event loops: kernel headers only, nothing to link.
        .systemLibrary(name: "CEventPoll"),
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(
            name: "CICU", pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        .systemLibrary(
            name: "CLibCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // QR codes for the terminal client only (never the SDK).
        .systemLibrary(
            name: "CQREncode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),

        // Shared by server and clients: wire models, field rules, error codes, messages.
        // The license note travels in the bundle with the list, as BSD-3 asks of binary copies.
        .target(
            name: "AccountAPI",
            resources: [.copy("Resources/common-passwords.txt"), .copy("Resources/common-passwords.LICENSE.md")]),

        // Server parts, each the only module that sees its C library.
        // Bounded worker threads for blocking work (stores, Argon2id, SMTP); no C library.
        .target(name: "Workers"),
        .target(name: "HTTPServer", dependencies: ["CEventPoll"]),
        .target(name: "Sodium", dependencies: ["CSodium"]),
        .target(name: "AccountStore", dependencies: ["AccountAPI", "Workers"]),
        // The store's SQL, written once, and the one transaction every SQL backend runs it in.
        .target(name: "AccountStoreSQL", dependencies: ["AccountStore"]),
        // The cache in front of any store: sessions with their accounts in memory, kept exact by
        // the writes' own announcements and a backend's change feed; and `/auth/me`'s encoded
        // bodies. No C library.
        .target(name: "AccountStoreCache", dependencies: ["AccountStore"]),
        .target(name: "AccountStoreSQLite", dependencies: ["AccountStore", "AccountStoreSQL", "AccountStoreCache", "Workers", "CSQLite"]),
        .target(name: "AccountStorePostgres", dependencies: ["AccountStore", "AccountStoreSQL", "AccountStoreCache", "Workers", "CLibPQ"]),
        // libcurl's easy handle (options, upload, bounded body), for Mailer and WebFetch.
        .target(name: "Curl", dependencies: ["CCurl"]),
        .target(name: "Mailer", dependencies: ["AccountAPI", "Workers", "Curl"]),
        // UTS #39 nickname checks (scripts, confusable skeletons) by ICU's spoof checker.
        .target(name: "UnicodeSecurity", dependencies: ["CICU"]),
        // HMAC-SHA-1 for authenticator-app codes (libsodium has no SHA-1), by OpenSSL's libcrypto.
        .target(name: "LibCrypto", dependencies: ["CLibCrypto"]),
        // HTTPS requests to other services (Apple's keys, token and revoke endpoints) through libcurl.
        .target(name: "WebFetch", dependencies: ["Curl", "Workers"]),
        // A strict CBOR decoder for WebAuthn's subset (and a canonical encoder); no C library.
        .target(name: "CBOR"),
        // WebAuthn Level 3 verification (§7.1, §7.2): client data, authenticator data, COSE keys,
        // attestation `none` and `packed` self-attestation; signatures through LibCrypto and Sodium.
        .target(name: "WebAuthn", dependencies: ["CBOR", "LibCrypto", "Sodium", "AccountAPI"]),
        // The account operations, their rules and their events: no HTTP, no SQL.
        .target(
            name: "AccountCore",
            dependencies: ["AccountAPI", "Sodium", "AccountStore", "AccountStoreCache", "Mailer", "UnicodeSecurity", "Workers", "LibCrypto", "WebAuthn", "WebFetch"]),
        // HTTP only: the pipeline, the routes, the contract document, the command line.
        .target(
            name: "AccountServer",
            dependencies: [
                "AccountCore", "AccountAPI", "HTTPServer", "Sodium", "AccountStore", "AccountStoreCache", "AccountStoreSQLite", "AccountStorePostgres", "Mailer",
                "UnicodeSecurity", "Workers", "LibCrypto", "WebAuthn", "WebFetch",
            ],
            // The operators' console (`/admin`): plain files, compiled into the binary.
            resources: [
                "console.html", "console.css", "icon.svg", "app.js", "api.js", "dom.js", "i18n.js", "charts.js", "login.js",
                "dashboard.js", "accounts.js", "account.js", "audit.js",
                "webauthn.js",
            ].map { .embedInCode("Console/" + $0) }),
        .executableTarget(name: "account-server", dependencies: ["AccountServer"]),

        // Client side: Foundation and AccountAPI only, so it builds for iOS.
        .target(name: "AccountKit", dependencies: ["AccountAPI"]),
        // The terminal client draws the authenticator app's QR code with libqrencode (QRCode).
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        .executableTarget(name: "account", dependencies: ["AccountKit", "QRCode"]),
        // SwiftUI screens; every file but the words' keys is `#if canImport(SwiftUI)`, so on Linux
        // the module holds only those, which a test checks against the String Catalog.
        .target(name: "AccountUI", dependencies: ["AccountKit"], resources: [.process("Resources/Localizable.xcstrings")]),
        // The example of docs/USING-ACCOUNTKIT.md, built and run against the real server by `make test`.
        .executableTarget(name: "QuickStart", dependencies: ["AccountKit"], path: "Examples/QuickStart"),
        // A process of AccountKitTests' two-process test: restores a shared file store and refreshes.
        .executableTarget(name: "SharedSessionHelper", dependencies: ["AccountKit"], path: "Tests/SharedSessionHelper"),

        // The test kit every test target shares: the `TestServer` protocol and its one `Reply`,
        // the server binary as one of its two kinds, the account factory, programs run, raw
        // HTTP, the test clock, the mail folder and its code rule, PostgreSQL databases, launches
        // serialized (`make test` runs each target in a process of its own; a plain `swift test`
        // runs them in one), and a stand-in for Apple's Sign in with Apple endpoints.
        .target(name: "TestSupport", dependencies: ["AccountAPI", "CBOR", "LibCrypto", "Sodium", "HTTPServer"], path: "Tests/TestSupport"),
        // The app in the test process over a real SQLite file (the kit's other `TestServer`), and
        // a transport that lets AccountKit's client call it without a socket.
        .target(
            name: "InProcess", dependencies: ["AccountServer", "AccountCore", "AccountStore", "AccountStoreCache", "AccountStoreSQLite", "Mailer", "HTTPServer", "TestSupport"],
            path: "Tests/InProcess"),
        // Scenarios of the API written once against the kit's `TestServer`: AccountServerTests
        // runs each in process, EndToEndTests on the binary. No server code.
        .target(name: "Scenarios", dependencies: ["AccountAPI", "TestSupport"], path: "Tests/Scenarios"),
        .testTarget(name: "AccountAPITests", dependencies: ["AccountAPI"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "WorkersTests", dependencies: ["Workers", "TestSupport"]),
        .testTarget(name: "SodiumTests", dependencies: ["Sodium"]),
        .testTarget(name: "LibCryptoTests", dependencies: ["LibCrypto"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "CBOR", "TestSupport"]),
        .testTarget(name: "UnicodeSecurityTests", dependencies: ["UnicodeSecurity", "AccountAPI"]),
        .testTarget(
            name: "AccountStoreTests",
            dependencies: ["AccountStore", "AccountStoreSQL", "AccountStoreCache", "AccountStoreSQLite", "AccountStorePostgres", "TestSupport", "UnicodeSecurity"]),
        .testTarget(name: "MailerTests", dependencies: ["Mailer", "TestSupport"]),
        .testTarget(name: "WebFetchTests", dependencies: ["WebFetch", "HTTPServer", "TestSupport"]),
        .testTarget(name: "AccountServerTests", dependencies: ["AccountServer", "AccountCore", "AccountStoreCache", "InProcess", "Scenarios", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["AccountAPI", "Scenarios", "TestSupport", "HTTPServer", "LibCrypto", "Sodium", "AccountStoreSQLite"]),
        .testTarget(name: "AccountKitTests", dependencies: ["AccountKit", "InProcess", "TestSupport"]),
        .testTarget(name: "AccountCLITests", dependencies: ["AccountAPI", "TestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
        .testTarget(name: "AccountUITests", dependencies: ["AccountUI", "TestSupport"]),
    ]
)
