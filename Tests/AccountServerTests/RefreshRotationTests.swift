import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer
@testable import AccountStoreSQLite

/// The refresh token of today's layout: the session's row holds its current generation and keyed
/// hash, a refresh moves that row on and writes nothing else, and a token is checked before the
/// database is asked.
@Suite("Refresh rotation in the session's row")
struct RefreshRotationTests {
    func refresh(_ harness: Harness, _ token: String) async throws -> Reply {
        try await harness.send("POST", "/auth/refresh", json: ["refresh": token])
    }

    func state(_ harness: Harness, of token: String) async throws -> SessionRefresh? {
        let sessionID = try #require(RefreshToken(text: token, keys: harness.app.services.secrets.refreshKeys)).sessionID
        return try await harness.store.read { try $0.refreshableSession(id: sessionID) }?.refresh
    }

    @Test("a refresh writes the session's row and nothing else: no token rows, the generation moves on")
    func oneRowARefresh() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        let keys = harness.app.services.secrets.refreshKeys
        #expect(login.refresh.count == RefreshToken.textLength)
        let issued = try #require(RefreshToken(text: login.refresh, keys: keys))
        #expect(try await state(harness, of: login.refresh) == SessionRefresh(generation: 0, tokenHash: issued.hash(keys: keys)))
        let before = try await harness.rowCounts()
        var token = login.refresh
        for generation in 1...3 {
            harness.clock.advance(60)
            let reply = try await refresh(harness, token)
            #expect(reply.status == 200)
            token = try reply.decode(TokenPair.self).refresh
            let parsed = try #require(RefreshToken(text: token, keys: keys))
            let state = try #require(try await state(harness, of: token))
            #expect(parsed.generation == Int64(generation) && state.generation == Int64(generation))
            #expect(state.tokenHash == parsed.hash(keys: keys))
            #expect(state.rotatedBy?.count == 16)
        }
        #expect(try await harness.rowCounts() == before, "no row added anywhere")
        let session = try #require(try await harness.store.read { try $0.sessions(userID: login.user.id) }.first)
        #expect(session.lastUsedAt == harness.clock.now)
    }

    @Test("a generation older than the one before the current is reuse: the session ends")
    func olderGeneration() async throws {
        let harness = try await Harness.make()
        let first = try await harness.signedIn(.minsu)
        harness.clock.advance(60)
        let second = try await refresh(harness, first.refresh).decode(TokenPair.self)
        harness.clock.advance(60)
        let third = try await refresh(harness, second.refresh).decode(TokenPair.self)
        let reused = try await refresh(harness, first.refresh)
        #expect(reused.status == 401 && reused.code == "refresh_token_reused")
        #expect(try await refresh(harness, third.refresh).code == "session_revoked")
        #expect(try await harness.send("GET", "/auth/me", token: third.access).code == "session_revoked")
        #expect(harness.app.metrics.refreshes(.reused) == 1)
    }

    @Test("the one before the current repeats within the window, then is reuse")
    func previousGeneration() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        harness.clock.advance(60)
        let second = try await refresh(harness, login.refresh).decode(TokenPair.self)
        harness.clock.advance(60)
        let third = try await refresh(harness, second.refresh).decode(TokenPair.self)
        harness.clock.advance(3)
        let again = try await refresh(harness, second.refresh)
        #expect(again.status == 200)
        #expect(try again.decode(TokenPair.self).refresh == third.refresh)
        #expect(try again.decode(TokenPair.self).access == third.access)
        harness.clock.advance(8)
        #expect(try await refresh(harness, second.refresh).code == "refresh_token_reused")
        #expect(try await refresh(harness, third.refresh).code == "session_revoked")
    }

    @Test("eight refreshes of one token at once: one rotation, seven repeats, all the same pair")
    func simultaneous() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        harness.clock.advance(60)
        let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
            for _ in 0..<8 { group.addTask { try await refresh(harness, login.refresh) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.map(\.status) == Array(repeating: 200, count: 8))
        #expect(Set(try replies.map { try $0.decode(TokenPair.self).refresh }).count == 1)
        #expect(harness.app.metrics.refreshes(.rotated) == 1 && harness.app.metrics.refreshes(.repeated) == 7)
        #expect(try await state(harness, of: login.refresh)?.generation == 1)
    }

    /// Tokens that are not one this server issued, each made from a real one.
    static func mangled(_ token: String, keys: RefreshTokenKeys, otherKeys: RefreshTokenKeys) -> [String: String] {
        let bytes = Base64URL.decode(token)!
        func flipped(_ index: Int) -> String {
            var copy = bytes
            copy[index] ^= 0x01
            return Base64URL.encode(copy)
        }
        func retagged(_ change: (inout [UInt8]) -> Void, keys: RefreshTokenKeys) -> String {
            var signed = Array(bytes.prefix(57))
            change(&signed)
            return Base64URL.encode(signed + Digest.hmacSHA256(key: keys.tag, message: signed).prefix(15))
        }
        return [
            "version": flipped(0), "session": flipped(5), "generation": flipped(24), "secret": flipped(40), "tag": flipped(70),
            "one character short": String(token.dropLast()), "one character more": token + "A",
            "padded": token + "=", "standard alphabet": "+" + token.dropFirst(),
            "spaces around": " \(token) ", "upper case": token.uppercased(),
            "another server's key": retagged({ _ in }, keys: otherKeys),
            "version 2, tagged": retagged({ $0[0] = 2 }, keys: keys),
            "negative generation, tagged": retagged({ $0[17] = 0x80 }, keys: keys),
            "a newer generation, tagged": retagged({ $0[24] = 9 }, keys: keys),
            "another secret, tagged": retagged({ $0[30] ^= 0xFF }, keys: keys),
            "another session, tagged": retagged({ $0[3] ^= 0xFF }, keys: keys),
            "too long to look up": String(repeating: "A", count: 257),
        ]
    }

    @Test("a token this server did not issue gets the reply of an unknown one, and changes nothing")
    func mangledTokens() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        let keys = harness.app.services.secrets.refreshKeys
        let unknown = try await refresh(harness, "made-up")
        #expect(unknown.status == 401 && unknown.code == "token_invalid")
        let counts = try await harness.rowCounts()
        let cases = Self.mangled(login.refresh, keys: keys, otherKeys: RefreshTokenKeys(derivation: Array(repeating: 7, count: 32)))
        for (name, token) in cases.sorted(by: { $0.key < $1.key }) {
            let reply = try await refresh(harness, token)
            #expect(reply.status == 401, "\(name)")
            #expect(reply.text == unknown.text, "\(name)")
            #expect(reply.header("WWW-Authenticate") == unknown.header("WWW-Authenticate"), "\(name)")
        }
        #expect(harness.app.metrics.refreshes(.invalid) == cases.count + 1)
        #expect(harness.app.metrics.refreshes(.reused) == 0)
        #expect(try await harness.rowCounts() == counts)
        #expect(try await state(harness, of: login.refresh)?.generation == 0, "no forged token moved or ended the session")
        #expect(try await refresh(harness, login.refresh).status == 200)
    }

    @Test("a token of a deleted session gets the same reply as a made-up one")
    func deletedSession() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        let unknown = try await refresh(harness, String(repeating: "A", count: RefreshToken.textLength))
        #expect(try await harness.send("DELETE", "/auth/me", json: ["password": "correct horse battery"], token: login.access).status == 204)
        let reply = try await refresh(harness, login.refresh)
        #expect(reply.status == 401 && reply.text == unknown.text)
    }

    @Test("the database keeps a keyed hash of the current token: never the token, its secret or its SHA-256")
    func nothingInClear() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        harness.clock.advance(60)
        let rotated = try await refresh(harness, login.refresh).decode(TokenPair.self)
        let file = try Data(contentsOf: harness.folder.appendingPathComponent("account.sqlite"))
            + ((try? Data(contentsOf: harness.folder.appendingPathComponent("account.sqlite-wal"))) ?? Data())
        for token in [login.refresh, rotated.refresh] {
            let bytes = try #require(Base64URL.decode(token))
            #expect(file.range(of: Data(token.utf8)) == nil)
            #expect(file.range(of: Data(bytes[25..<57])) == nil, "the secret")
            #expect(file.range(of: Data(bytes[57...])) == nil, "the tag")
            #expect(file.range(of: Data(Digest.sha256(Array(token.utf8)))) == nil, "an unkeyed hash")
            #expect(file.range(of: Data(Digest.sha256(Array(bytes[25..<57])))) == nil, "an unkeyed hash of the secret")
        }
        let keys = harness.app.services.secrets.refreshKeys
        let stored = try #require(try await state(harness, of: rotated.refresh)).tokenHash
        let parsed = try #require(RefreshToken(text: rotated.refresh, keys: keys))
        #expect(stored == parsed.hash(keys: keys))
        #expect(file.range(of: Data(stored)) != nil, "the keyed hash is what is there")
    }
}
