import AccountAPI
import Foundation
import TestSupport
import Testing

/// Code requests for one new address at the same moment, on two servers over one PostgreSQL
/// database and on one server over SQLite: each purpose's resend cooldown lets one through, and
/// the address's mail budget one message.
extension RaceTests {
    @Test("eight code requests for one new address at once: one 202 and one mail, seven rate_limited", arguments: Backend.available)
    func eightCodeRequestsAtOnce(_ backend: Backend) async throws {
        try await Self.newAddressRounds(try await Servers.start(backend)) { servers, email in
            (0..<8).map { index in
                Burst.Request(port: servers.port(index), "POST", "/auth/email/code", json: ["email": email, "purpose": "signup"])
            }
        } fine: { replies in
            replies.filter { $0.status == 202 }.count == 1 && replies.filter { $0.problem?.code == .rateLimited }.count == 7
        }
    }

    @Test("four sign-ups and four sign-up codes of one new address at once: one of each accepted, one mail", arguments: Backend.available)
    func signUpsAndCodesAtOnce(_ backend: Backend) async throws {
        try await Self.newAddressRounds(try await Servers.start(backend)) { servers, email in
            (0..<8).map { index in
                guard index < 4 else {
                    return Burst.Request(port: servers.port(index), "POST", "/auth/email/code", json: ["email": email, "purpose": "signup"])
                }
                let account = TestAccount(username: TestAccount("su\(index)").username, email: email, password: "Pw-\(UUID().uuidString)")
                return Burst.Request(port: servers.port(index), "POST", "/auth/signup", json: account.signUpFields)
            }
        } fine: { replies in
            // Each purpose has its cooldown (a sign-up's code is a `verify` code); the address's
            // mail budget lets one message through.
            let accepted = [replies[..<4], replies[4...]].map { half in half.filter { $0.status == 202 }.count }
            return accepted == [1, 1] && replies.filter { $0.problem?.code == .rateLimited }.count == 6
        }
    }

    /// Rounds that each send `burst` for a new address at once and expect its replies `fine`, and
    /// one message to the address: by the end of its round (the first), and still one a second
    /// after the last round (any other).
    private static func newAddressRounds(
        _ servers: Servers, sourceLocation: SourceLocation = #_sourceLocation,
        _ burst: (Servers, String) -> [Burst.Request], fine: ([Reply]) -> Bool
    ) async throws {
        var addresses: [String] = []
        try await servers.rounds(signUpRounds, sourceLocation: sourceLocation) { round in
            let email = TestAccount("fresh").email
            addresses.append(email)
            let replies = try await Burst.send(burst(servers, email))
            guard fine(replies) else { return summary(replies) }
            let mailed = try await servers.a.mail.arrived(1, to: email).count
            if mailed != 1 { return "\(mailed) messages to \(email)" }
            guard round == signUpRounds - 1 else { return nil }
            try await Task.sleep(for: .seconds(1))
            _ = await servers.a.mail.delivered()
            let counts = addresses.map { servers.a.mail.messages(to: $0).count }
            return counts.allSatisfy { $0 == 1 } ? nil : "messages per address: \(counts)"
        }
    }
}
