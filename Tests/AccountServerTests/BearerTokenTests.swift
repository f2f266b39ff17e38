import Testing
@testable import AccountServer

@Suite("Authorization: Bearer parsing")
struct BearerTokenTests {
    @Test("the scheme in any letter case, blanks around and between, the token byte for byte", arguments: [
        ("Bearer abc.def.ghi", "abc.def.ghi"),
        ("bearer  abc  ", "abc"),
        ("\tBEARER\tabc\t", "abc"),
        ("  BeArEr x", "x"),
        ("Bearer ä b é", "ä b é"),
        ("Bearer 토큰", "토큰"),
    ])
    func accepted(header: String, token: String) {
        #expect(AccountApp.bearerCredentials(in: header) == token)
    }

    @Test("anything else is no bearer token", arguments: ["", "Bearer", "Bearer ", "Bearer \t ", "Bearerabc", "Basic abc", "Bearers abc", "Bear abc", "Béarer abc"])
    func refused(header: String) {
        #expect(AccountApp.bearerCredentials(in: header) == nil)
    }
}
