import AccountKit
import Foundation

/// The example of `docs/USING-ACCOUNTKIT.md`, whole: both sign-up flows, the profile, sessions,
/// a refresh, a wrong password, an unreachable server, a relaunch and logging out, against a real
/// server. `make test` builds it and runs it against the test server, so the guide cannot rot.
///
/// The same calls work in an iOS or macOS app; only where the codes come from (here standard
/// input, there a text field) and the store differ.
enum QuickStart {
    /// The app's identifier: it names the store (the Keychain service, or the folder on Linux).
    static let appID = "com.example.quickstart"

    /// Runs every step against `server`; throws the first failure.
    static func run(server: URL, io: Console) async throws {
        let client = AccountClient(baseURL: server)
        let session = SessionManager(client: client, store: store(appID: appID))
        io.say("QuickStart against \(server.absoluteString)")

        // Events arrive while the rest goes on: iterate them in a task of their own, since the
        // loop lasts as long as the session manager.
        let watcher = Task {
            for await event in await session.events() { io.say("event: \(event)") }
        }
        defer { watcher.cancel() }

        try await session.restore()
        try await detailsFirst(session, io: io)
        try await emailFirst(session, io: io)
        try await relaunch(client: client, io: io)
        await unreachable(io: io)
        io.say("done")
    }

    /// The store for this platform: the Keychain in an app, a private `0600` file on Linux. A
    /// command-line tool on macOS is no signed app with a Keychain entitlement, so it uses the
    /// file there too.
    static func store(appID: String) -> any CredentialStore {
        #if os(macOS)
        FileCredentialStore(appID: appID)
        #else
        .platformDefault(appID: appID)
        #endif
    }

    /// Details first: every field, then the mailed code, which makes the account and signs it in:
    /// the password is not needed again.
    static func detailsFirst(_ session: SessionManager, io: Console) async throws {
        let (username, email) = newAccountNames("quick")
        let request = SignUpRequest(
            username: username, email: email, password: password, passwordConfirmation: password, mbti: .enfp)
        guard case .codeSent(let accepted) = try await session.signUp(request) else { throw Failure("no code was sent") }
        io.say("details-first: code sent to \(accepted.email), valid \(accepted.expiresIn / 60) minutes")
        let verified = try await session.verifyEmail(accepted.email, code: try io.askCode(for: accepted.email))
        guard let user = verified.session?.user else { throw Failure("the code did not sign in") }
        io.say("details-first: verified and signed in as \(user.username)")

        let changed = try await session.updateProfile(UpdateProfileRequest(mbti: .intj))
        io.say("profile: MBTI is now \(changed.mbti.rawValue)")
        let devices = try await session.sessions()
        io.say("sessions: \(devices.count), this one \(devices.first { $0.current }?.deviceName ?? "unnamed")")
        try await session.logOut()
        io.say("details-first: logged out")
    }

    /// Email first: prove the address, then sign up with the proof, which signs in.
    static func emailFirst(_ session: SessionManager, io: Console) async throws {
        let (username, email) = newAccountNames("first")
        let sent = try await session.client.requestEmailCode(EmailCodeRequest(email: email, purpose: .signup))
        io.say("email-first: code sent to \(sent.email)")
        let proof = try await session.client.verifyEmail(EmailVerifyRequest(email: email, code: try io.askCode(for: sent.email)))
        let request = SignUpRequest(
            username: username, email: email, password: password, passwordConfirmation: password, mbti: .istp,
            emailVerificationToken: proof.emailVerificationToken)
        guard case .signedIn(let pair) = try await session.signUp(request) else { throw Failure("the proof did not sign up") }
        io.say("email-first: signed up and signed in as \(pair.user.username)")

        try await session.refresh()
        let expires = session.accessTokenExpiresAt.map { Int($0.timeIntervalSinceNow) } ?? 0
        io.say("refreshed: the access token lives \(expires) more seconds by this device's clock")
        do {
            try await session.logIn(.identifier(username, password: "not the password at all"))
        } catch AccountError.invalidCredentials {
            io.say("wrong password: \(AccountError.invalidCredentials.localizedDescription(in: .en))")
        }
        io.say("still signed in as \(session.currentUser?.username ?? "nobody")")
    }

    /// A relaunch: a new manager over the same store finds the session, then logs out.
    static func relaunch(client: AccountClient, io: Console) async throws {
        let session = SessionManager(client: client, store: store(appID: appID))
        guard case .signedIn(let user) = try await session.restore() else { throw Failure("nothing to restore") }
        io.say("relaunch: restored as \(user.username)")
        io.say("relaunch: the server says \(try await session.me().username)")
        try await session.logOut()
        io.say("relaunch: logged out")
    }

    /// A server that cannot be reached is a `transport` error, with a sentence to show.
    static func unreachable(io: Console) async {
        do {
            _ = try await AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!).policy()
        } catch let error as AccountError {
            io.say("offline: \(error.localizedDescription(in: .en))")
        } catch {
            io.say("offline: \(error)")
        }
    }

    /// A password the rules accept, the same for both accounts (each keeps its own hash).
    static let password = "Quick-" + UUID().uuidString

    /// A fresh nickname and address.
    static func newAccountNames(_ prefix: String) -> (String, String) {
        let tag = UUID().uuidString.prefix(8).lowercased()
        return ("\(prefix)_\(tag)", "\(prefix).\(tag)@example.com")
    }

    /// A step that did not go as the guide says.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
