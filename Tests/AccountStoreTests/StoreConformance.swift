import AccountStore
import Testing

/// One behaviour every ``AccountStore`` backend must show, run against a fresh, migrated store.
struct Behaviour: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable (any AccountStore) async throws -> Void

    var testDescription: String { name }
}

/// The conformance suite shared by every backend.
///
/// A backend's tests run each of ``behaviours`` against a new empty store, for example
/// `@Test(arguments: StoreConformance.behaviours) func conforms(_ b: Behaviour)`.
enum StoreConformance {
    static let behaviours: [Behaviour] = [
        Behaviour(name: "users round-trip by id, username key and email key", check: usersRoundTrip),
        Behaviour(name: "updateUser overwrites and reports key conflicts", check: updateUser),
        Behaviour(name: "duplicate username key conflicts and rolls back the transaction", check: duplicateUsername),
        Behaviour(name: "duplicate email key conflicts and rolls back the transaction", check: duplicateEmail),
        Behaviour(name: "a throwing write body rolls back and its error comes through", check: throwingBodyRollsBack),
        Behaviour(name: "read transactions refuse writes", check: readRefusesWrites),
        Behaviour(name: "a transaction is unusable after its closure", check: transactionEndsWithClosure),
        Behaviour(name: "deleteUser removes sessions and codes", check: deleteUserCascades),
        Behaviour(name: "a session needs an existing user", check: sessionNeedsUser),
        Behaviour(name: "sessions: newest first, touch, revoke one, revoke others", check: sessions),
        Behaviour(name: "codes: upsert replaces, attempts count, delete", check: codes),
        Behaviour(name: "verification tokens are single-use", check: verificationTokens),
        Behaviour(name: "signing keys: oldest first, retire all but one", check: signingKeys),
        Behaviour(name: "settings: insert-if-absent keeps the first value", check: settings),
        Behaviour(name: "outbox: due mail, claim, reschedule, delete", check: outbox),
        Behaviour(name: "concurrent claims of one message: exactly one wins", check: claimMailRace),
        Behaviour(name: "the mail hook hears committed writes that queued mail, and only those", check: mailQueuedHook),
        Behaviour(name: "outbox: every waiting message listed, its text replaced in place", check: outboxTextRewrite),
        Behaviour(name: "migrate is idempotent and returns the version", check: migrateIsIdempotent),
        Behaviour(name: "login throttles: created empty, updated, deleted", check: loginThrottles),
        Behaviour(name: "100 concurrent increments of one throttle row all count", check: loginThrottleRace),
        Behaviour(name: "rate counters: fixed windows per key", check: rateCounters),
        Behaviour(name: "100 concurrent rate counter increments all count", check: rateCounterRace),
        Behaviour(name: "200 concurrent tasks reading and writing", check: concurrentReadsAndWrites),
        Behaviour(name: "nickname skeletons: found by kind, unique, changed with the nickname", check: usernameSkeletons),
        Behaviour(name: "an account without skeletons is refused", check: skeletonsRequired),
        Behaviour(name: "settings: names, replace, delete, rolled back with their transaction", check: settingsReplaceAndDelete),
        Behaviour(name: "signing keys: a seed is replaced in place", check: signingKeySeeds),
        Behaviour(name: "pending sign-ups: one per address, one per nickname, expiry", check: pendingSignUps),
        Behaviour(name: "codes under a cooldown: a young code is kept", check: codeCooldown),
        Behaviour(name: "40 concurrent codes under one cooldown: exactly one is stored", check: codeCooldownRace),
        Behaviour(name: "a session is read with its account in one query", check: sessionWithUser),
        Behaviour(name: "the store's sessionWithUser(id:) sees every write at once", check: storeSessionWithUser),
        Behaviour(name: "authenticator factors: enrol, replace, confirm, steps used once, disable", check: totpFactors),
        Behaviour(name: "recovery codes: a set replaces the last, each used once, counted", check: recoveryCodes),
        Behaviour(name: "second-factor challenges: by hash, tries counted, removed, expired swept", check: secondFactorChallenges),
        Behaviour(name: "sessions keep how their login was authenticated (amr)", check: sessionAuthenticationMethods),
        Behaviour(name: "passkeys: one credential id across accounts, listed, used, deleted by their owner", check: passkeys),
        Behaviour(name: "WebAuthn challenges: taken once, expired swept, given back on rollback", check: webAuthnChallenges),
        Behaviour(name: "30 concurrent answers to one WebAuthn challenge: exactly one wins", check: webAuthnChallengeRace),
        Behaviour(name: "a session keeps its refresh state: read with its account, rotated once per generation", check: sessionRefreshState),
        Behaviour(name: "50 concurrent rotations of one generation: exactly one wins", check: sessionRefreshRace),
        Behaviour(name: "operators: the admin role and disabling, read with the session at once", check: operatorFlags),
        Behaviour(name: "admin search: filters, newest first or by key, keyset pages, byte-wise prefixes, last login", check: adminSearch),
        Behaviour(name: "admin search: a prefix in a wide window, walked under its budget, every match once in key order", check: adminSearchWideWindow),
        Behaviour(name: "security events: per account, newest first, keyset paged, pruned by age and count, gone with the account", check: securityEvents),
        Behaviour(name: "hourly counters add up, never overwrite, and old hours go", check: hourlyCounters),
        Behaviour(name: "40 concurrent additions to one hour's counter all count", check: hourlyCounterRace),
        Behaviour(name: "Apple IDs: one per account and account per Apple ID, flagged on the account, unlinked once", check: appleIdentities),
        Behaviour(name: "Apple continuations: by hash, swept when expired, given back on rollback", check: appleContinuations),
        Behaviour(name: "used Apple identity tokens: recorded once, given back on rollback, expired ones swept in batches", check: usedAppleTokens),
        Behaviour(name: "outbox rows keep their kind", check: outboxKinds),
        Behaviour(name: "concurrent links of one Apple ID, completions of one continuation, uses of one identity token: exactly one wins", check: { try await appleRaces($0, $0) }),
        Behaviour(name: "sessions keep the client address of their last use, forgotten when they end", check: sessionClientAddress),
        Behaviour(name: "ended sessions' addresses: found without live ones, forgotten once they ended", check: endedSessionAddresses),
    ]
}
