import AccountAPI
import Foundation
import TestSupport
import Testing

/// Nicknames (UTS #39) and email spellings over HTTP against the real binary, mail read from the
/// `.eml` files.
@Suite struct NamesAndAddressesTests {
    /// The `To:` address of every message in the mail folder, waiting until there are `count`.
    static func recipients(_ server: ServerProcess, count: Int) async throws -> [String] {
        for _ in 0..<200 {
            let messages = server.mail.messages()
            if messages.count >= count {
                return messages.compactMap(MailFolder.recipient(of:))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("fewer than \(count) messages in \(server.folder.mail.path)")
    }

    @Test func nicknames_invisible_mixed_or_alike_are_refused_over_http() async throws {
        let server = try await ServerProcess.start()
        for name in ["\u{3164}\u{3164}", "\u{115F}\u{1160}mina", "mina\u{FFA0}", "mi\u{200D}na", "mina\u{FE0F}", "mi\u{00AD}na"] {
            let reply = try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse"))
            #expect(reply.status == 422 && reply.fieldCodes("username") == ["invisible_character"], "\(name.unicodeScalars.map(\.value)): \(reply.text)")
        }
        for name in ["\u{0430}dmin", "p\u{0430}ypal", "abc\u{05D0}", "mina\u{0E01}", "mina1\u{FF12}", "민수\u{0430}"] {
            let reply = try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse"))
            #expect(reply.status == 422 && reply.fieldCodes("username") == ["mixed_script"], "\(name): \(reply.text)")
        }
        for name in ["민수kim", "Li王", "kim김王", "さくらSakura", "Москва"] {
            let reply = try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse"))
            #expect(reply.status == 202, "\(name): \(reply.text)")
        }
        for name in ["mina", "paypal", "kim.lee"] { #expect(try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse")).status == 202) }
        for name in ["rnina", "M\u{0131}NA", "paypaI", "PAYPA1", "kim.Iee", "KIM.1EE"] {
            let reply = try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse"))
            #expect(reply.status == 409 && reply.problem?.code == .usernameTaken, "\(name): \(reply.text)")
        }
        for name in ["adm\u{0131}n", "adrnin", "ADMlN", "r00t", "0wner", "he1p"] {
            let reply = try await server.trySignUp(TestAccount(username: name, email: TestAccount().email, password: "Pw-correct horse"))
            #expect(reply.status == 422 && reply.fieldCodes("username") == ["taken"], "\(name): \(reply.text)")
        }
        // A profile rename is held to the same rules.
        let (_, pair) = try await server.verifiedAccount("renamer")
        let rename = try await server.client.send("PATCH", "/auth/me", json: ["username": "rnina"], token: pair.access)
        #expect(rename.status == 409 && rename.problem?.code == .usernameTaken, "\(rename.text)")
        let invisible = try await server.client.send("PATCH", "/auth/me", json: ["username": "\u{3164}\u{3164}"], token: pair.access)
        #expect(invisible.fieldCodes("username") == ["invisible_character"])
        // The contract names the new codes.
        let document = try await server.client.send("GET", "/openapi.json")
        #expect(document.text.contains("invisible_character") && document.text.contains("mixed_script"))
        await server.stop()
    }

    @Test func email_spellings_are_one_account_and_mail_goes_to_the_stored_address() async throws {
        // The server's clock is read from a file, so the resend cooldown can pass without waiting.
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let kim = TestAccount(username: "kimtest", email: "kim@example.com", password: "Pw-correct horse")
        try await server.signUp(kim)
        try await server.verify(kim.email)
        let lee = TestAccount(username: "leetest", email: "Lee.Sora@Example.com", password: "Pw-correct horse")
        try await server.signUp(lee)
        var mails = 2
        // Each message to one address waits a minute (the mail budget), at most five an hour.
        var seconds = 0
        func later(_ by: Int) throws {
            seconds += by
            clock.set(ahead: TimeInterval(seconds))
        }

        // The Kelvin sign, long s, full width, a full-width @, another case: all the same account.
        for spelling in ["\u{212A}im@example.com", "ｋｉｍ@ｅｘａｍｐｌｅ.ｃｏｍ", "KIM@EXAMPLE.COM", "kim＠example．com"] {
            try later(61)
            let again = try await server.trySignUp(TestAccount(username: "second_\(mails)", email: spelling, password: "Pw-correct horse"))
            #expect(again.status == 202, "\(again.text)")
            mails += 1
            for body in [["email": spelling], ["login": spelling]] {
                let login = try await server.client.send("POST", "/auth/login", json: body.merging(["password": kim.password]) { a, _ in a })
                #expect(login.status == 200, "\(body): \(login.text)")
                #expect((try? login.decode(TokenPair.self))?.user.email == "kim@example.com")
            }
        }
        // Codes asked for by another spelling, for every purpose: to the stored address.
        try later(3600)
        let verify = try await server.client.send("POST", "/auth/email/code", json: ["email": "LEE.SORA@EXAMPLE.COM", "purpose": "verify"])
        let signup = try await server.client.send("POST", "/auth/email/code", json: ["email": "\u{212A}IM@example.com", "purpose": "signup"])
        try later(61)
        let reset = try await server.client.send("POST", "/auth/password/reset", json: ["email": "\u{212A}im@EXAMPLE.com"])
        #expect(verify.status == 202 && signup.status == 202 && reset.status == 202)
        mails += 3
        let recipients = try await Self.recipients(server, count: mails)
        #expect(recipients.count == mails)
        #expect(Set(recipients) == ["kim@example.com", "Lee.Sora@Example.com"], "\(recipients)")

        let code = try await server.mail.code(to: "Lee.Sora@Example.com")
        let verified = try await server.client.send("POST", "/auth/email/verify", json: ["email": "lee.sora@example.com", "code": code])
        #expect(verified.status == 200, "\(verified.text)")
        await server.stop()
    }
}
