import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// The stored record is read leniently, so an app and its extension built with different SDK
/// versions share one session: today's record, a record from before there was a version, a
/// newer version with fields this one does not know, and one without its optional fields.
@Suite struct StoredSessionRecordTests {
    /// The user as the record holds it.
    let user = #"{"id":"7d3c1d2e-8a0b-4a3e-9f51-3b2c1a0d9e8f","username":"민수","email":"minsu@example.com","email_verified":true,"mbti":"INTJ","created_at":"2026-11-30T04:46:45Z"}"#

    func decode(_ json: String) throws -> StoredSession {
        try StoredSession.decoder.decode(StoredSession.self, from: Data(json.utf8))
    }

    @Test func todaysRecordRoundTripsWithItsVersion() throws {
        let pair = TokenPair(access: "a.b.c", refresh: "r1", expiresIn: 900, refreshExpiresIn: 2_592_000, user: try decode(
            #"{"access":"x","refresh":"y","access_expires_at":"2026-12-01T00:00:00Z","refresh_expires_at":"2026-12-31T00:00:00Z","user":\#(user)}"#).user)
        let session = StoredSession(pair: pair, receivedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let data = try StoredSession.encoder.encode(session)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == StoredSession.recordVersion)
        #expect(StoredSession.recordVersion == 1)
        #expect(Set(object.keys) == ["version", "access", "refresh", "access_expires_at", "refresh_expires_at", "access_lifetime", "user"])
        #expect(try StoredSession.decoder.decode(StoredSession.self, from: data) == session)
    }

    @Test func aRecordFromBeforeVersionsIsRead() throws {
        // What the SDK wrote before the record had a version.
        let session = try decode(
            #"{"access":"a.b.c","access_expires_at":"2026-12-01T00:15:00Z","access_lifetime":900,"refresh":"r1","refresh_expires_at":"2026-12-31T00:00:00Z","user":\#(user)}"#)
        #expect(session.access == "a.b.c" && session.refresh == "r1" && session.accessLifetime == 900)
        #expect(session.user.username == "민수" && session.user.mbti == .intj)
    }

    @Test func aNewerVersionWithFieldsThisSDKDoesNotKnowIsReadForTheFieldsItKnows() throws {
        let session = try decode(
            #"{"version":7,"access":"a.b.c","refresh":"r1","access_expires_at":"2026-12-01T00:15:00Z","refresh_expires_at":"2026-12-31T00:00:00Z","access_lifetime":900,"device_binding":{"key":"k1","alg":"ES256"},"scopes":["profile"],"user":{"id":"7d3c1d2e-8a0b-4a3e-9f51-3b2c1a0d9e8f","username":"민수","email":"minsu@example.com","email_verified":true,"mbti":"intj","created_at":"2026-11-30T04:46:45Z","avatar":"https://example.com/a.png"}}"#)
        #expect(session.access == "a.b.c" && session.refresh == "r1")
        #expect(session.user.username == "민수")
        // Written back in this SDK's version, which a newer SDK reads too.
        let rewritten = try JSONSerialization.jsonObject(with: StoredSession.encoder.encode(session)) as? [String: Any]
        #expect(rewritten?["version"] as? Int == StoredSession.recordVersion)
    }

    @Test func aMissingLifetimeLeavesTheLeewayUncapped() throws {
        let session = try decode(
            #"{"version":2,"access":"a","refresh":"r","access_expires_at":"2026-12-01T00:15:00Z","refresh_expires_at":"2026-12-31T00:00:00Z","user":\#(user)}"#)
        let expires = session.accessExpiresAt
        #expect(session.needsRefresh(at: expires.addingTimeInterval(-59), leeway: 60))
        #expect(!session.needsRefresh(at: expires.addingTimeInterval(-61), leeway: 60))
        #expect(try decode(String(decoding: StoredSession.encoder.encode(session), as: UTF8.self)) == session, "written back and read again")
    }

    @Test(arguments: ["access", "access_expires_at", "refresh_expires_at", "user"])
    func aRecordWithoutANeededFieldIsUnreadable(field: String) throws {
        var object: [String: Any] = [
            "version": 1, "access": "a", "refresh": "r", "access_expires_at": "2026-12-01T00:15:00Z",
            "refresh_expires_at": "2026-12-31T00:00:00Z",
            "user": try JSONSerialization.jsonObject(with: Data(user.utf8)),
        ]
        object[field] = nil
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try StoredSession.decoder.decode(StoredSession.self, from: data) }
    }

    @Test func aRecordWithoutItsRefreshTokenIsOneWhoseTokenIsKeptApart() throws {
        let session = try decode(
            #"{"version":1,"access":"a","access_expires_at":"2026-12-01T00:15:00Z","refresh_expires_at":"2026-12-31T00:00:00Z","access_lifetime":900,"user":\#(user)}"#)
        #expect(session.refresh.isEmpty)
        let written = try JSONSerialization.jsonObject(with: StoredSession.encoder.encode(session)) as? [String: Any]
        #expect(written?["refresh"] == nil, "an empty refresh token is not written")
    }

    @Test func aManagerOverAStoreWithoutASeparateTokenIsSignedOutAndLeavesSuchARecord() async throws {
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        try store.store(key: manager.credentialKey, value: Data(
            #"{"version":1,"access":"a","access_expires_at":"2999-12-01T00:15:00Z","refresh_expires_at":"2999-12-31T00:00:00Z","access_lifetime":900,"user":\#(user)}"#.utf8))
        #expect(try await manager.restore() == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) != nil, "left to the process that keeps the token apart")
    }

    @Test func aNewerRecordRestoresASession() async throws {
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        try store.store(key: manager.credentialKey, value: Data(
            #"{"version":9,"future":true,"access":"a","refresh":"r","access_expires_at":"2999-12-01T00:15:00Z","refresh_expires_at":"2999-12-31T00:00:00Z","access_lifetime":900,"user":\#(user)}"#.utf8))
        guard case .signedIn(let user) = try await manager.restore() else { Issue.record("not signed in"); return }
        #expect(user.username == "민수")
        #expect(try await manager.accessToken() == "a")
    }
}
