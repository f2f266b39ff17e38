import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The passkey options of the command line: what they default to, and what is refused at start.
@Suite struct PasskeyOptionsTests {
    func configuration(_ arguments: [String]) throws -> ServerConfiguration {
        guard case .serve(let configuration) = try ServerCommandLine.parse(arguments, environment: [:]) else {
            throw CommandLineError(description: "not serve")
        }
        return configuration
    }

    @Test func theDefaultsFollowTheIssuer() throws {
        let plain = try configuration([])
        #expect(plain.effectiveWebAuthnRPID == "localhost")
        #expect(plain.effectiveWebAuthnOrigins == ["http://localhost:8000"])
        let hosted = try configuration(["--issuer", "https://accounts.example.com"])
        #expect(hosted.effectiveWebAuthnRPID == "accounts.example.com")
        #expect(hosted.effectiveWebAuthnOrigins == ["https://accounts.example.com"])
    }

    @Test func originsAndAppsRepeat() throws {
        let given = try configuration([
            "--webauthn-rp-id", "example.com", "--webauthn-origin", "https://example.com", "--webauthn-origin",
            "https://app.example.com:8443,android:apk-key-hash:abc", "--apple-app-id", "ABCDE12345.com.example.app",
            "--apple-app-id", "ZYXWV98765.com.example.other",
        ])
        #expect(given.effectiveWebAuthnOrigins == ["https://example.com", "https://app.example.com:8443", "android:apk-key-hash:abc"])
        #expect(given.appleAppIDs == ["ABCDE12345.com.example.app", "ZYXWV98765.com.example.other"])
    }

    @Test(arguments: [
        ["--webauthn-origin", "https://example.com/"], ["--webauthn-origin", "https://example.com/path"],
        ["--webauthn-origin", "http://example.com"], ["--webauthn-origin", "example.com"], ["--webauthn-origin", "https://user@example.com"],
        ["--webauthn-rp-id", "Example.com"], ["--webauthn-rp-id", "https://example.com"], ["--webauthn-rp-id", "example..com"],
        ["--webauthn-rp-id", "example.com", "--webauthn-origin", "https://example.org"],
        ["--webauthn-rp-id", "example.com", "--webauthn-origin", "https://badexample.com"],
        ["--webauthn-rp-id", "example.com"],
        ["--apple-app-id", "com.example.app"], ["--apple-app-id", "abcde12345.com.example.app"], ["--apple-app-id", "ABCDE12345."],
    ])
    func mistakesAreRefused(_ arguments: [String]) {
        #expect(throws: CommandLineError.self) { try configuration(arguments) }
    }

    @Test func aSubdomainOriginAndLocalhostOverHTTPAreFine() throws {
        #expect(throws: Never.self) {
            try configuration(["--webauthn-rp-id", "example.com", "--webauthn-origin", "https://login.example.com"])
        }
        #expect(throws: Never.self) { try configuration(["--webauthn-origin", "http://localhost:3000"]) }
    }
}
