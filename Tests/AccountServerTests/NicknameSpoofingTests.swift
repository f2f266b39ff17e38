import AccountAPI
import AccountStore
import Foundation
import Mailer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Nicknames: invisible characters, mixed scripts and look-alikes (UTS #39), in process.
@Suite("Nickname spoofing")
struct NicknameSpoofingTests {
    @Test("Invisible nicknames are refused with invisible_character and write nothing", arguments: [
        "\u{3164}\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}\u{FFA0}", "mi\u{3164}na", "mi\u{200D}na", "mi\u{200C}na",
        "mina\u{FE0F}", "mi\u{00AD}na", "\u{2060}mina", "mi\u{E0020}na",
    ])
    func invisible(_ name: String) async throws {
        let harness = try await Harness.make()
        let before = try await harness.rowCounts()
        let reply = try await harness.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "correct horse battery"))
        #expect(reply.status == 422 && reply.code == "validation_failed")
        #expect(reply.fieldCodes("username") == ["invisible_character"])
        #expect(try await harness.rowCounts() == before)
    }

    @Test("Scripts mixed beyond highly restrictive, or two number systems, are mixed_script", arguments: [
        "\u{0430}dmin", "p\u{0430}ypal", "g\u{03BF}\u{03BF}gle", "abc\u{05D0}", "mina\u{0E01}", "\u{13A0}mina", "mina1\u{FF12}",
        "민수\u{0430}", "\u{0561}bc", "ab\u{10D0}",
    ])
    func mixedScripts(_ name: String) async throws {
        let harness = try await Harness.make()
        let reply = try await harness.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "correct horse battery"))
        #expect(reply.status == 422)
        #expect(reply.fieldCodes("username") == ["mixed_script"], "\(reply.text)")
        #expect(try await harness.counts() == [0, 0])
    }

    @Test("One script, or Latin with Hangul, Han or Japanese kana, signs up", arguments: [
        "민수kim", "Li王", "kim김王", "さくらSakura", "カタカナabc", "Москва", "Αθηνά", "mina_99", "王小明", "ㅋㅋlol",
    ])
    func allowedMixes(_ name: String) async throws {
        let harness = try await Harness.make()
        let reply = try await harness.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "correct horse battery"))
        #expect(reply.status == 202, "\(reply.text)")
    }

    @Test("A look-alike of an existing nickname is taken", arguments: [
        ("mina", "rnina"), ("mina", "MINA"), ("paypal", "paypa1"), ("paypal", "PAYPA1"), ("paypal", "paypaI"),
        ("kim.lee", "kim.Iee"), ("kim.lee", "KIM.1EE"), ("minsu", "rninsu"), ("hello", "he11o"), ("boo", "b00"),
        ("admin2", "adm\u{0131}n2"), ("Mina", "M\u{0131}na"), ("coco", "\u{0441}\u{043E}\u{0441}\u{043E}"),
    ])
    func lookalikeOfAccount(_ pair: (String, String)) async throws {
        let harness = try await Harness.make()
        #expect(try await harness.trySignUp(TestAccount(username: pair.0, email: TestAccount().email, password: "correct horse battery")).status == 202)
        _ = try await harness.mails()  // delivered now, so the outbox does not change under the comparison
        let before = try await harness.rowCounts()
        let reply = try await harness.trySignUp(TestAccount(username: pair.1, email: TestAccount().email, password: "correct horse battery"))
        #expect(reply.status == 409 && reply.code == "username_taken", "\(pair.1): \(reply.text)")
        #expect(try await harness.rowCounts() == before)
    }

    @Test("A look-alike of a reserved name is taken", arguments: [
        "adm\u{0131}n", "adrnin", "ADMIN", "ＡＤＭＩＮ", "ADMlN", "r00t", "R00T", "rnod", "0wner", "he1p", "nu11", "1ogin",
        "adm\u{0131}n\u{0131}strator", "ADM\u{0131}N",
    ])
    func lookalikeOfReserved(_ name: String) async throws {
        let harness = try await Harness.make()
        let reply = try await harness.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "correct horse battery"))
        #expect(reply.status == 422, "\(name): \(reply.text)")
        #expect(reply.fieldCodes("username") == ["taken"], "\(name): \(reply.text)")
    }

    @Test func profile_rename_is_checked_the_same_way() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "mina", email: "mina@example.com", password: "correct horse battery"))
        let token = try await harness.signedIn(TestAccount(username: "jun", email: "jun@example.com", password: "correct horse battery")).access
        for (name, expected) in [("rnina", "username_taken"), ("\u{3164}\u{3164}", "invisible_character"),
                                 ("jun\u{0430}", "mixed_script"), ("adm\u{0131}n", "taken")] {
            let reply = try await harness.send("PATCH", "/auth/me", json: ["username": name], token: token)
            let code = reply.status == 409 ? reply.code : reply.fieldCodes("username").first
            #expect(code == expected, "\(name): \(reply.text)")
        }
        // Its own nickname in another case stays its own.
        let recased = try await harness.send("PATCH", "/auth/me", json: ["username": "JUN"], token: token)
        #expect(recased.status == 200 && recased["username"] as? String == "JUN")
        // A rename frees the old skeleton and takes the new one.
        #expect(try await harness.send("PATCH", "/auth/me", json: ["username": "junho"], token: token).status == 200)
        #expect(try await harness.trySignUp(TestAccount(username: "jun", email: TestAccount().email, password: "correct horse battery")).status == 202)
        #expect(try await harness.trySignUp(TestAccount(username: "junh0", email: TestAccount().email, password: "correct horse battery")).code == "username_taken")
    }
}
