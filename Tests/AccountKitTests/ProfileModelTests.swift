import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// The profile model's decisions without a server: the draft, what saving sends, and where
/// refusals land.
@MainActor @Suite struct ProfileModelTests {
    static let user = User(
        id: UUID(), username: "민수", email: "minsu@example.com", emailVerified: true, mbti: .enfp,
        createdAt: Date(timeIntervalSince1970: 1_800_000_000))

    /// A model showing `user`, as if `load()` had fetched it.
    static func loaded() -> ProfileModel {
        let session = SessionManager(
            client: AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en),
            store: InMemoryCredentialStore())
        let model = ProfileModel(session: session)
        model.show(user)
        return model
    }

    @Test func nothingToSaveUntilTheDraftChanges() {
        let model = Self.loaded()
        #expect(!model.canSave, "not editing")
        model.startEditing()
        #expect(model.draftUsername == "민수")
        #expect(model.draftMBTI == .enfp)
        #expect(model.changes == nil)
        #expect(!model.canSave)

        model.draftMBTI = .intj
        #expect(model.changes == UpdateProfileRequest(mbti: .intj), "only the changed field is sent")
        #expect(model.canSave)
        model.draftUsername = "지우"
        #expect(model.changes == UpdateProfileRequest(username: "지우", mbti: .intj))

        model.cancelEditing()
        #expect(!model.isEditing)
        #expect(!model.canSave)
    }

    @Test func anInvalidNicknameShowsAsYouTypeAndBlocksSaving() {
        let model = Self.loaded()
        model.startEditing()
        #expect(model.errors(for: .username).isEmpty)
        model.draftUsername = "x"
        #expect(model.errors(for: .username) == ["Use at least 2 characters."])
        #expect(!model.canSave)
        model.draftMBTI = nil
        #expect(model.errors(for: .mbti) == ["Choose your MBTI type."])
    }

    @Test func takenNicknameLandsOnTheNicknameField() {
        let model = Self.loaded()
        model.startEditing()
        model.draftUsername = "지우"
        model.apply(.conflict(.usernameTaken))
        #expect(model.errors(for: .username) == ["This nickname is already taken."])
        #expect(model.message == nil)
        #expect(!model.canSave)
        model.draftUsername = "지우2"
        #expect(model.errors(for: .username).isEmpty)
        #expect(model.canSave)
    }

    @Test func serverFieldErrorsLandOnTheirFields() {
        let model = Self.loaded()
        model.startEditing()
        model.apply(.invalidInput(["mbti": [FieldError(code: .invalidChoice, message: "Choose one of the 16 MBTI types.")]]))
        #expect(model.errors(for: .mbti) == ["Choose one of the 16 MBTI types."])
        #expect(model.errors(for: .username).isEmpty)
    }

    @Test func anEndedSessionSignsTheScreenOut() {
        let model = Self.loaded()
        model.apply(.sessionRevoked(.sessionRevoked))
        #expect(model.isSignedOut)
        #expect(model.user == nil)
        #expect(model.message == "You have been signed out. Please sign in again.")
    }

    @Test func otherFailuresKeepTheUser() {
        let model = Self.loaded()
        model.apply(.transport(URLError(.timedOut)))
        #expect(!model.isSignedOut)
        #expect(model.user == Self.user)
        #expect(model.message == "Cannot reach the server. Check your connection.")
    }
}

/// `ProfileModel` against the real server.
@MainActor @Suite(.serialized) struct ProfileModelServerTests {
    /// A verified account, signed in through a fresh session manager.
    func signedIn(_ server: InProcessServer, _ client: AccountClient, username: String, email: String) async throws -> SessionManager {
        _ = try await client.signUp(SignUpRequest(username: username, email: email, password: "correct horse battery", mbti: .enfp))
        let code = try await server.mail.code(to: email)
        _ = try await client.verifyEmail(EmailVerifyRequest(email: email, code: code))
        let session = SessionManager(client: client, store: InMemoryCredentialStore())
        try await session.logIn(.identifier(username, password: "correct horse battery"))
        return session
    }

    @Test func loadSaveAndLogOut() async throws {
        try await withModelServer { server, client in
            _ = try await signedIn(server, client, username: "지우", email: "jiwoo@example.com")
            let session = try await signedIn(server, client, username: "민수", email: "minsu@example.com")
            let model = ProfileModel(session: session)
            await model.load()
            #expect(model.user?.username == "민수")

            model.startEditing()
            model.draftUsername = "지우"
            await model.save()
            #expect(model.errors(for: .username) == ["This nickname is already taken."])
            #expect(model.isEditing)
            #expect(model.user?.username == "민수")

            model.draftUsername = "민수2"
            model.draftMBTI = .intj
            await model.save()
            #expect(model.message == nil)
            #expect(!model.isEditing)
            #expect(model.user?.username == "민수2")
            #expect(model.user?.mbti == .intj)
            #expect(try await session.me().mbti == .intj, "the server has it")

            await model.logOut()
            #expect(model.isSignedOut)
            #expect(model.user == nil)
            #expect(await session.state == .signedOut)
        }
    }

    @Test func sessionsListRevokeAndLogOutEverywhere() async throws {
        try await withModelServer { server, client in
            let phone = try await signedIn(server, client, username: "민수", email: "minsu@example.com")
            let laptop = SessionManager(client: client, store: InMemoryCredentialStore())
            try await laptop.logIn(.identifier("민수", password: "correct horse battery"))
            let tablet = SessionManager(client: client, store: InMemoryCredentialStore())
            try await tablet.logIn(.identifier("minsu@example.com", password: "correct horse battery"))

            let model = ProfileModel(session: phone)
            await model.loadSessions()
            #expect(model.sessions.count == 3)
            #expect(model.sessions.filter(\.current).count == 1)
            // Each with the address the server saw it used from (the in-process loopback peer).
            #expect(model.sessions.allSatisfy { $0.clientAddress == "127.0.0.1" }, "\(model.sessions)")

            let other = try #require(model.sessions.first { !$0.current })
            await model.revoke(other.id)
            #expect(model.message == nil)
            #expect(model.sessions.count == 2)
            #expect(!model.sessions.contains { $0.id == other.id })
            var ended = 0
            for device in [laptop, tablet] where (try? await device.me()) == nil { ended += 1 }
            #expect(ended == 1, "exactly the revoked device lost its session")

            await model.logOutEverywhere()
            #expect(model.isSignedOut)
            #expect(model.sessions.isEmpty)
            for device in [laptop, tablet] { #expect((try? await device.me()) == nil) }
            #expect(await phone.state == .signedOut)
        }
    }

    @Test func aRevokedSessionShowsAsSignedOut() async throws {
        try await withModelServer { server, client in
            let session = try await signedIn(server, client, username: "민수", email: "minsu@example.com")
            let model = ProfileModel(session: session)
            await model.load()
            // Another device ends every session of the account.
            let other = SessionManager(client: client, store: InMemoryCredentialStore())
            try await other.logIn(.identifier("민수", password: "correct horse battery"))
            try await other.logOut(everywhere: true)

            await model.load()
            #expect(model.isSignedOut)
            #expect(model.user == nil)
            #expect(model.message != nil)
        }
    }
}
