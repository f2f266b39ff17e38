import AccountAPI
import Foundation
import Testing
@testable import AccountServer

@Suite("The /auth/me JSON writer")
struct ProfileJSONTests {
    func user(_ name: String, email: String = "mina@example.com", verified: Bool = true, at seconds: TimeInterval = 1_790_000_000) -> User {
        User(id: UUID(), username: name, email: email, emailVerified: verified, mbti: MBTI.allCases.randomElement()!, createdAt: Date(timeIntervalSince1970: seconds))
    }

    func expectSameAsEncoder(_ user: User) throws {
        let written = ProfileJSON.bytes(user)
        let encoded = [UInt8](try JSONCoding.encoder.encode(user))
        #expect(written == encoded, "\(String(decoding: written, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
    }

    @Test("every ASCII character, alone and among others, is written as JSONEncoder writes it")
    func asciiEscapes() throws {
        for code in 0..<128 {
            let character = String(UnicodeScalar(UInt8(code)))
            try expectSameAsEncoder(user(character, email: "a\(character)b@x.test"))
            try expectSameAsEncoder(user("x" + character + "/y\\\"", verified: code % 2 == 0))
        }
    }

    @Test("Unicode names, odd times and both verification states match byte for byte")
    func unicodeAndTimes() throws {
        let names = ["민수", "ÉLODIE", "👩🏽‍💻dev", "e\u{301}", "\u{2028}\u{2029}", "\u{7F}\u{80}\u{FEFF}", "名前_テスト", ""]
        for (index, name) in names.enumerated() {
            try expectSameAsEncoder(user(name, verified: index % 2 == 0, at: Double(1_600_000_000 + index * 97_531) + 0.75))
        }
    }

    @Test("the /auth/me reply is this writer's output")
    func meUsesWriter() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedInUser()
        let me = try await harness.send("GET", "/auth/me", token: try #require(login["access"] as? String))
        let user = try me.decode(User.self)
        #expect(me.response.body == ProfileJSON.bytes(user))
    }
}
