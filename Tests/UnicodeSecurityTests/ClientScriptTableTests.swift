@testable import AccountAPI
import Testing
import UnicodeSecurity

/// The client's look-alike script ranges (AccountAPI, no ICU) against ICU's Script_Extensions, so a
/// nickname the client refuses as `mixed_script` is one the server refuses too.
@Suite("Client script table against ICU")
struct ClientScriptTableTests {
    @Test func every_listed_letter_and_digit_has_exactly_that_script_in_icu() throws {
        let expected: [LookalikeScripts.Script: String] = [.latin: "Latn", .greek: "Grek", .cyrillic: "Cyrl"]
        var checked = 0
        for value in UInt32(0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value), let script = LookalikeScripts.script(of: scalar) else { continue }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
                let icu = try UnicodeData.scriptExtensions(of: scalar)
                #expect(icu == [expected[script]!], "U+\(String(value, radix: 16, uppercase: true)): \(icu)")
                checked += 1
            default:
                continue
            }
        }
        #expect(checked > 1000)
    }

    @Test("What the client calls mixed, ICU's highly restrictive check refuses", arguments: [
        "\u{0430}dmin", "p\u{0430}ypal", "g\u{03BF}\u{03BF}gle", "Москваmoscow", "αbc", "김\u{0430}dmin", "\u{0391}\u{0434}",
    ])
    func client_refusals_are_server_refusals(_ name: String) throws {
        #expect(LookalikeScripts.mixes(name))
        #expect(try SpoofChecker().check(name).contains(.restrictionLevel))
    }
}
