import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// Logging a device out of the sessions list asks first, this device's row as much as another's.
@MainActor @Suite(.serialized) struct SessionRevokeConfirmationTests {
    func signedIn(_ server: InProcessServer, _ client: AccountClient) async throws -> SessionManager {
        _ = try await client.signUp(SignUpRequest(username: "민수", email: "minsu@example.com", password: "correct horse battery", mbti: .enfp))
        _ = try await client.verifyEmail(EmailVerifyRequest(email: "minsu@example.com", code: try await server.mail.code(to: "minsu@example.com")))
        let session = SessionManager(client: client, store: InMemoryCredentialStore())
        try await session.logIn(.identifier("민수", password: "correct horse battery"))
        return session
    }

    @Test func thisDevicesRowLogsOutOnlyAfterAYes() async throws {
        try await withModelServer { server, client in
            let session = try await signedIn(server, client)
            let model = ProfileModel(session: session)
            await model.loadSessions()
            let here = try #require(model.sessions.first { $0.current })

            model.askToRevoke(here.id)
            #expect(model.revokeCandidate == here)
            #expect(model.revokeLogsOutHere)
            #expect(!model.isSignedOut, "asking ends nothing")
            model.cancelRevoke()
            #expect(model.revokeCandidate == nil)
            #expect(try await session.me().username == "민수")

            model.askToRevoke(here.id)
            await model.confirmRevoke()
            #expect(model.isSignedOut)
            #expect(await session.state == .signedOut)
        }
    }

    @Test func anotherDeviceIsRevokedOnlyAfterAYes() async throws {
        try await withModelServer { server, client in
            let phone = try await signedIn(server, client)
            let laptop = SessionManager(client: client, store: InMemoryCredentialStore())
            try await laptop.logIn(.identifier("민수", password: "correct horse battery"))
            let model = ProfileModel(session: phone)
            await model.loadSessions()
            let other = try #require(model.sessions.first { !$0.current })

            model.askToRevoke(other.id)
            #expect(!model.revokeLogsOutHere)
            #expect(model.sessions.count == 2, "asking ends nothing")
            #expect(try await laptop.me().username == "민수")

            await model.confirmRevoke()
            #expect(model.revokeCandidate == nil)
            #expect(model.sessions.map(\.id) == model.sessions.filter(\.current).map(\.id))
            #expect((try? await laptop.me()) == nil, "the other device lost its session")
            #expect(!model.isSignedOut)
        }
    }

    @Test func askingAboutASessionNotInTheListAsksNothing() {
        let model = ProfileModel(session: .inMemory(AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)))
        model.askToRevoke(UUID())
        #expect(model.revokeCandidate == nil)
    }
}
