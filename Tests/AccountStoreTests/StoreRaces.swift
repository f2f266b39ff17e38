import AccountStore
import Foundation
import Testing

/// A race every backend must end the same way: several transactions about one row at once, the
/// way the server's handlers write them, repeated round after round.
struct Race: Sendable, CustomTestStringConvertible {
    let name: String
    /// One round on stores `a` and `b` (two servers; the same store twice on SQLite); returns
    /// what went wrong, or `nil`.
    let round: @Sendable (_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String?

    var testDescription: String { name }
}

/// The races of the server's "same thing at once" paths, each run ``rounds`` times in a row:
/// enough that a race lost one time in ten would show.
enum StoreRaces {
    static let rounds = 40
    /// Transactions racing in each round.
    static let width = 8

    static let all: [Race] = [
        Race(name: "eight refreshes of one session's generation: one rotates it, seven see it rotated", round: sessionRotation),
        Race(name: "logout while four refreshes of one generation rotate it", round: logoutDuringSessionRotation),
        Race(name: "tries counted on one login throttle row while successes delete it", round: throttleWithSuccesses),
        Race(name: "eight checks of one right code: it is spent once", round: rightCodeAtOnce),
        Race(name: "eight wrong tries of one code: five count, then it is spent", round: wrongCodesAtOnce),
        Race(name: "eight sign-ups of one nickname: one account, seven taken", round: oneNickname),
        Race(name: "eight sign-ups of one address: one account, seven taken", round: oneAddress),
        Race(name: "eight increments of one address counter all count", round: addressCounter),
        Race(name: "eight claims of one outbox message: one wins", round: outboxClaim),
        Race(name: "eight uses of one authenticator step: one is accepted, seven are replays", round: sameStepAtOnce),
        Race(name: "eight uses of one recovery code: one spends it", round: sameRecoveryCodeAtOnce),
        Race(name: "eight answers to one login challenge: one takes it", round: oneChallengeAtOnce),
        Race(name: "a password change during seven profile edits: every change is kept", round: passwordChangeDuringEdits),
        Race(name: "seven sessions opened while the account is deleted: each opens first or sees it gone", round: sessionsWhileDeleted),
        Race(name: "lookups on both servers while the account and its sessions change: each after a write sees it", round: lookupsDuringChanges),
    ]

    /// Runs every round of `race` and expects none to go wrong.
    static func run(_ race: Race, _ a: any AccountStore, _ b: any AccountStore) async throws {
        var failures: [String] = []
        for round in 0..<rounds {
            if let failure = try await race.round(a, b, round) { failures.append("round \(round): \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(rounds) rounds:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Runs `width` transactions at once, alternating between the stores; each one's outcome, or
    /// `error: …` for one that threw.
    static func atOnce(
        _ a: any AccountStore, _ b: any AccountStore, width: Int = width,
        _ body: @escaping @Sendable (_ index: Int, _ store: any AccountStore) async throws -> String
    ) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for index in 0..<width {
                group.addTask {
                    do { return try await body(index, index.isMultiple(of: 2) ? a : b) } catch { return "error: \(error)" }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// How often each outcome came, for comparisons and failure messages.
    static func tally(_ outcomes: [String]) -> [String: Int] {
        outcomes.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    // MARK: Refresh tokens

    /// A token hash of its own per session, so rounds never share rows.
    static func tokenHash(_ session: SessionRecord, _ seed: UInt8) -> [UInt8] {
        Array(session.id.uuidString.utf8.prefix(24)) + Fixture.hash(seed).prefix(8)
    }

    /// A refresh transaction (``rotateSession(_:_:_:)``).
    typealias Rotation = @Sendable (_ store: any AccountStore, _ session: SessionRecord, _ now: Date) async throws -> String

    /// `width` rotations of one token at once: one rotates, the rest see it used.
    static func rotationsAtOnce(_ a: any AccountStore, _ b: any AccountStore, session: SessionRecord, _ rotation: @escaping Rotation) async -> String? {
        let outcomes = tally(await atOnce(a, b) { index, store in try await rotation(store, session, Fixture.time(index)) })
        return outcomes == ["rotated": 1, "repeated": width - 1] ? nil : "\(outcomes)"
    }

    /// A logout while four rotations of one token run: it is logged out, and at most one rotated.
    static func logoutDuring(_ a: any AccountStore, _ b: any AccountStore, session: SessionRecord, _ rotation: @escaping Rotation) async throws -> String? {
        let outcomes = await atOnce(a, b, width: 5) { index, store in
            guard index > 0 else {
                return try await store.write { try $0.revokeSession(id: session.id, at: Fixture.time(1)) } ? "logged out" : "not logged out"
            }
            return try await rotation(store, session, Fixture.time(2))
        }
        let counts = tally(outcomes)
        let revoked = try await b.read { try $0.session(id: session.id)?.revokedAt } != nil
        let fine = counts["logged out"] == 1 && (counts["rotated"] ?? 0) <= 1
            && outcomes.allSatisfy { ["logged out", "rotated", "repeated", "revoked"].contains($0) }
        return fine && revoked ? nil : "\(counts), revoked: \(revoked)"
    }

    /// A user with one session at refresh generation 0.
    static func sessionWithRefresh(_ store: any AccountStore) async throws -> SessionRecord {
        let user = Fixture.user("u\(UUID().uuidString.prefix(8))")
        let session = Fixture.session(of: user)
        try await store.write { tx in
            try tx.insertUser(user)
            try tx.insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: tokenHash(session, 1)))
        }
        return session
    }

    /// The refresh route's transaction on a session's own row: rotate generation 0, or see it
    /// rotated or revoked.
    static func rotateSession(_ store: any AccountStore, _ session: SessionRecord, _ now: Date) async throws -> String {
        try await store.write { tx in
            guard let found = try tx.refreshableSession(id: session.id) else { return "unknown" }
            if found.session.revokedAt != nil { return "revoked" }
            if found.refresh.generation == 1 { return "repeated" }
            let next = SessionRefresh(generation: 1, tokenHash: tokenHash(session, 2), rotatedBy: [1])
            return try tx.rotateRefresh(sessionID: session.id, from: 0, to: next, at: now, clientAddress: nil) ? "rotated" : "lost the race"
        }
    }

    static func sessionRotation(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        await rotationsAtOnce(a, b, session: try await sessionWithRefresh(a), rotateSession)
    }

    static func logoutDuringSessionRotation(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        try await logoutDuring(a, b, session: try await sessionWithRefresh(a), rotateSession)
    }

    // MARK: Login throttle

    static func throttleWithSuccesses(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let key = "throttle-\(round)"
        let now = Fixture.time()
        try await a.write { tx in
            var record = try tx.lockLoginThrottle(key: key, now: now)
            record.failures = 1
            try tx.updateLoginThrottle(record)
        }
        // Six tries counted as the login throttle counts them, two successful logins clearing the row.
        let outcomes = await atOnce(a, b) { index, store in
            try await store.write { tx in
                if index < 2 {
                    try tx.deleteLoginThrottle(key: key)
                    return "cleared"
                }
                var record = try tx.lockLoginThrottle(key: key, now: now)
                record.failures += 1
                try tx.updateLoginThrottle(record)
                return "counted"
            }
        }
        let failures = try await a.write { try $0.lockLoginThrottle(key: key, now: now) }.failures
        let counts = tally(outcomes)
        return counts == ["cleared": 2, "counted": width - 2] && failures <= width - 1 ? nil : "\(counts), failures \(failures)"
    }

    // MARK: Codes

    static let maxAttempts = 5

    /// The code check's transaction: a right code is spent, a wrong one counts a try.
    static func check(_ store: any AccountStore, email: String, right: Bool) async throws -> String {
        try await store.write { tx in
            guard let code = try tx.code(emailKey: email, purpose: "verify") else { return "invalid" }
            guard code.attempts < maxAttempts else { return "spent" }
            if right {
                try tx.deleteCode(emailKey: email, purpose: "verify")
                return "verified"
            }
            return try tx.incrementCodeAttempts(emailKey: email, purpose: "verify") >= maxAttempts ? "spent" : "invalid"
        }
    }

    static func rightCodeAtOnce(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let email = "right\(round)@example.com"
        try await a.write { try $0.upsertCode(Fixture.code(email, purpose: "verify")) }
        let outcomes = tally(await atOnce(a, b) { _, store in try await check(store, email: email, right: true) })
        return outcomes == ["verified": 1, "invalid": width - 1] ? nil : "\(outcomes)"
    }

    static func wrongCodesAtOnce(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let email = "wrong\(round)@example.com"
        try await a.write { try $0.upsertCode(Fixture.code(email, purpose: "verify")) }
        let outcomes = tally(await atOnce(a, b) { _, store in try await check(store, email: email, right: false) })
        let attempts = try await b.read { try $0.code(emailKey: email, purpose: "verify")?.attempts }
        let expected = ["invalid": maxAttempts - 1, "spent": width - maxAttempts + 1]
        return outcomes == expected && attempts == maxAttempts ? nil : "\(outcomes), attempts \(attempts ?? -1)"
    }

    // MARK: Sign-up

    /// The sign-up transaction: a taken nickname or address is found first or conflicts on insert.
    static func signUp(_ store: any AccountStore, _ user: UserRecord) async throws -> String {
        do {
            return try await store.write { tx in
                if try tx.user(usernameKey: user.usernameKey) != nil || tx.user(emailKey: user.emailKey) != nil { return "taken" }
                try tx.insertUser(user)
                return "created"
            }
        } catch StoreError.conflict {
            return "taken"
        }
    }

    static func oneNickname(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let nickname = "nick\(round)"
        let outcomes = tally(await atOnce(a, b) { index, store in
            try await signUp(store, Fixture.user(nickname, email: "nick\(round).\(index)@example.com"))
        })
        return outcomes == ["created": 1, "taken": width - 1] ? nil : "\(outcomes)"
    }

    static func oneAddress(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let email = "addr\(round)@example.com"
        let outcomes = tally(await atOnce(a, b) { index, store in
            try await signUp(store, Fixture.user("addr\(round)x\(index)", email: email))
        })
        return outcomes == ["created": 1, "taken": width - 1] ? nil : "\(outcomes)"
    }

    // MARK: Counters and outbox

    static func addressCounter(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let key = "address:10.0.0.\(round)"
        let outcomes = await atOnce(a, b) { _, store in
            String(try await store.write { try $0.incrementRateCounter(key: key, now: Fixture.time(), window: 60) }.count)
        }
        return outcomes.compactMap(Int.init).sorted() == Array(1...width) ? nil : "\(outcomes.sorted())"
    }

    static func outboxClaim(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let message = Fixture.mail()
        try await a.write { try $0.enqueueMail(message) }
        let outcomes = tally(await atOnce(a, b) { _, store in
            try await store.write { try $0.claimMail(id: message.id, now: Fixture.time(10), until: Fixture.time(70)) } ? "claimed" : "taken"
        })
        return outcomes == ["claimed": 1, "taken": width - 1] ? nil : "\(outcomes)"
    }
}
