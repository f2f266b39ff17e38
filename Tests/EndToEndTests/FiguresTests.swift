import AccountAPI
import Foundation
import TestSupport
import Testing

/// `GET /admin/api/figures` against the real binary, moved through hours and days by its test
/// clock: every count lands in its hour and day (UTC), quiet buckets are zeros, and two servers
/// on one PostgreSQL database add up (one flushing at shutdown, one before its reply).
@Suite struct FiguresTests {
    /// What one stretch of activity should add to a bucket.
    struct Counts: Equatable, CustomStringConvertible {
        var signups = 0, succeeded = 0, failed = 0, mfaRequired = 0, refused = 0, refreshes = 0, codesSent = 0

        init(signups: Int = 0, succeeded: Int = 0, failed: Int = 0, mfaRequired: Int = 0, refused: Int = 0, refreshes: Int = 0, codesSent: Int = 0) {
            (self.signups, self.succeeded, self.failed, self.mfaRequired) = (signups, succeeded, failed, mfaRequired)
            (self.refused, self.refreshes, self.codesSent) = (refused, refreshes, codesSent)
        }

        init(_ bucket: FiguresBucket) {
            self.init(
                signups: bucket.signups, succeeded: bucket.logins.succeeded, failed: bucket.logins.failed,
                mfaRequired: bucket.logins.mfaRequired, refused: bucket.logins.refused, refreshes: bucket.refreshes, codesSent: bucket.codesSent)
        }

        static func + (a: Counts, b: Counts) -> Counts {
            Counts(
                signups: a.signups + b.signups, succeeded: a.succeeded + b.succeeded, failed: a.failed + b.failed,
                mfaRequired: a.mfaRequired + b.mfaRequired, refused: a.refused + b.refused, refreshes: a.refreshes + b.refreshes,
                codesSent: a.codesSent + b.codesSent)
        }

        var description: String {
            "signups \(signups), ok \(succeeded), failed \(failed), mfa \(mfaRequired), refused \(refused), refreshes \(refreshes), codes \(codesSent)"
        }
    }

    /// A verified account with the authenticator and the admin role: signs up (a sign-up and a
    /// code), logs in (a login); its console logins count an `mfa_required` and a login each.
    static let operatorMaking = Counts(signups: 1, succeeded: 1, codesSent: 1)
    static let operatorLogin = Counts(succeeded: 1, mfaRequired: 1)

    func makeOperator(_ server: ServerProcess, clock: TestClock, database: String) async throws -> SecondFactorAccount {
        let account = try await server.accountWithSecondFactor("figures")
        let grant = try await runServerCommand(["admin", "grant", account.account.username, "--database-url", database])
        try #require(grant.status.code == 0, "\(grant)")
        return account
    }

    /// An access token of the operator, signed in with the authenticator now.
    func operatorToken(_ server: ServerProcess, _ op: SecondFactorAccount, clock: TestClock) async throws -> String {
        let challenge = try await server.challenge(op.account)
        let signedIn = try await server.answer(challenge.mfaToken, code: op.code(at: clock.nextStep()))
        try #require(signedIn.status == 200, "\(signedIn.text)")
        return try signedIn.decode(TokenPair.self).access
    }

    func figures(_ server: ServerProcess, token: String) async throws -> AdminFigures {
        let reply = try await server.client.send("GET", "/admin/api/figures", token: token)
        try #require(reply.status == 200, "\(reply.status) \(reply.text)")
        return try reply.decode(AdminFigures.self)
    }

    /// The figures, read by the operator signed in with the authenticator now.
    func figures(_ server: ServerProcess, _ op: SecondFactorAccount, clock: TestClock) async throws -> AdminFigures {
        try await figures(server, token: try await operatorToken(server, op, clock: clock))
    }

    /// Moves `clock` so the server's time is `minutes` past a whole hour, `hoursAhead` whole hours on.
    func moveTo(_ clock: TestClock, minutesPast minutes: Double, hoursAhead: Int) {
        let now = clock.serverNow.timeIntervalSince1970
        let target = ((now / 3600).rounded(.down) + Double(hoursAhead)) * 3600 + minutes * 60
        clock.advance(target - now)
    }

    /// 24 hourly and 30 daily buckets, oldest first, each an hour or a day after the one before,
    /// the last the hour and the day of `now` (UTC).
    func checkShape(_ figures: AdminFigures, now: Date, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(figures.hourly.count == 24 && figures.daily.count == 30, sourceLocation: sourceLocation)
        let hour = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600
        let day = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        #expect(figures.hourly.map(\.start.timeIntervalSince1970) == (0..<24).map { hour - Double(23 - $0) * 3600 }, sourceLocation: sourceLocation)
        #expect(figures.daily.map(\.start.timeIntervalSince1970) == (0..<30).map { day - Double(29 - $0) * 86_400 }, sourceLocation: sourceLocation)
    }

    @Test func countsLandInTheirHourAndDay() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock, ["--login-attempts", "3"])
        let database = "sqlite:\(folder.database.path)"
        // 01:05 UTC of the next day: the hours below stay within one day.
        let now = clock.serverNow.timeIntervalSince1970
        clock.advance(((now / 86_400).rounded(.down) + 1) * 86_400 + 65 * 60 - now)

        // Hour A: the operator, an account (sign-up, code, login), two wrong passwords, an
        // unknown account, three refreshes.
        let op = try await makeOperator(server, clock: clock, database: database)
        let (user, pair) = try await server.verifiedAccount("counted")
        for _ in 0..<2 {
            #expect(try await server.client.send("POST", "/auth/login", json: ["username": user.username, "password": "wrong horse 12345"]).status == 401)
        }
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": "nobody_here_2", "password": "wrong horse 12345"]).status == 401)
        var refresh = pair.refresh
        for _ in 0..<3 {
            let reply = try await server.refresh(refresh)
            try #require(reply.status == 200)
            refresh = try reply.decode(TokenPair.self).refresh
        }
        let hourA = Self.operatorMaking + Counts(signups: 1, succeeded: 1, failed: 3, refreshes: 3, codesSent: 1)

        // Two hours on (03:05): three wrong passwords start the back-off, the fourth is refused;
        // a reset code; a refresh; a malformed login (no attempt).
        moveTo(clock, minutesPast: 5, hoursAhead: 2)
        for _ in 0..<3 {
            #expect(try await server.client.send("POST", "/auth/login", json: ["username": user.username, "password": "wrong horse 12345"]).status == 401)
        }
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": user.username, "password": user.password]).status == 429)
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": user.username]).status == 422)
        #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": user.email]).status == 202)
        #expect(try await server.refresh(refresh).status == 200)
        let hourB = Counts(failed: 3, refused: 1, refreshes: 1, codesSent: 1) + Self.operatorLogin

        let atB = try await figures(server, op, clock: clock)
        checkShape(atB, now: clock.serverNow)
        #expect(Counts(atB.hourly[23]) == hourB, "this hour")
        #expect(Counts(atB.hourly[21]) == hourA, "two hours before")
        #expect(atB.hourly.enumerated().filter { ![21, 23].contains($0.offset) }.allSatisfy { Counts($0.element) == Counts() }, "the rest are zeros")
        #expect(Counts(atB.daily[29]) == hourA + hourB, "today")
        #expect(atB.daily.dropLast().allSatisfy { Counts($0) == Counts() })

        // Three days on: a new account. Hours A and B are three days back, out of the hourly figures.
        moveTo(clock, minutesPast: 5, hoursAhead: 72)
        _ = try await server.verifiedAccount("later")
        let atC = try await figures(server, op, clock: clock)
        checkShape(atC, now: clock.serverNow)
        let dayC = Counts(signups: 1, succeeded: 1, codesSent: 1) + Self.operatorLogin
        #expect(Counts(atC.hourly[23]) == dayC)
        #expect(atC.hourly.dropLast().allSatisfy { Counts($0) == Counts() })
        #expect(Counts(atC.daily[29]) == dayC)
        #expect(Counts(atC.daily[26]) == hourA + hourB, "three days back, with the first console login")
        #expect(atC.daily.enumerated().filter { ![26, 29].contains($0.offset) }.allSatisfy { Counts($0.element) == Counts() })

        // The same after a restart: the counts are in the database.
        await server.stop()
        let again = try await ServerProcess.start(in: folder, clock: clock)
        let restarted = try await figures(again, op, clock: clock)
        #expect(Counts(restarted.daily[26]) == hourA + hourB)
        #expect(Counts(restarted.daily[29]) == dayC + Self.operatorLogin)

        // The gate: a token without the role is refused.
        let plain = try await again.logIn(user)
        #expect(try await again.client.send("GET", "/admin/api/figures", token: plain.access).problem?.code == .adminRequired)
        #expect(try await again.client.send("GET", "/admin/api/figures").status == 401)
        await again.stop()
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func twoServersOnPostgreSQLAddUp() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let options = ["--database-url", database, "--database-pool", "2"]
        let a = try await ServerProcess.start(in: folder, clock: clock, options)
        let b = try await ServerProcess.start(in: folder, clock: clock, options)
        // Ten minutes past an hour, so the test stays in it.
        moveTo(clock, minutesPast: 10, hoursAhead: 1)
        let op = try await makeOperator(a, clock: clock, database: database)

        // Each server: an account and a wrong password; b refreshes twice, a once.
        var expected = Self.operatorMaking
        for server in [a, b] {
            let (user, pair) = try await server.verifiedAccount("twin")
            #expect(try await server.client.send("POST", "/auth/login", json: ["username": user.username, "password": "wrong horse 12345"]).status == 401)
            var refresh = pair.refresh
            for _ in 0..<(server === b ? 2 : 1) {
                let reply = try await server.refresh(refresh)
                try #require(reply.status == 200)
                refresh = try reply.decode(TokenPair.self).refresh
            }
            expected = expected + Counts(signups: 1, succeeded: 1, failed: 1, refreshes: server === b ? 2 : 1, codesSent: 1)
        }
        // b stops at once: what it counted is added as it shuts down, and a's figures have it.
        await b.stop()
        let token = try await operatorToken(a, op, clock: clock)
        let added = try await figures(a, token: token)
        #expect(Counts(added.hourly[23]) == expected + Self.operatorLogin)
        #expect(Counts(added.daily[29]) == expected + Self.operatorLogin)

        // A server still running adds its counts every few seconds without being asked.
        let c = try await ServerProcess.start(in: folder, clock: clock, options)
        _ = try await c.verifiedAccount("third")
        let total = expected + Self.operatorLogin + Counts(signups: 1, succeeded: 1, codesSent: 1)
        var seen = Counts()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            seen = Counts(try await figures(a, token: token).hourly[23])
            // Every count, not only the sign-ups: c adds what it counted in the same flush, but a
            // login may be counted a moment after the sign-up that the reply already showed.
            if seen == total { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(seen == total, "\(seen)")
        await c.stop()
        await a.stop()
    }
}
