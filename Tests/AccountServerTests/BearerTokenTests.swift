import Testing
@testable import AccountCore
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
        #expect(Authenticator.bearerCredentials(in: header) == token)
    }

    @Test("anything else is no bearer token", arguments: ["", "Bearer", "Bearer ", "Bearer \t ", "Bearerabc", "Basic abc", "Bearers abc", "Bear abc", "Béarer abc"])
    func refused(header: String) {
        #expect(Authenticator.bearerCredentials(in: header) == nil)
    }
}

@Suite("Content-Type of a request body")
struct MediaTypeTests {
    @Test("application/json in any letter case, with blanks and parameters", arguments: [
        "application/json", "Application/JSON", " application/json ", "application/json; charset=utf-8",
        "application/json;charset=UTF-8", "\tAPPLICATION/json\t; x=y",
    ])
    func json(header: String) {
        #expect(JSONBody.isJSONMediaType(header))
    }

    @Test("anything else is not", arguments: [
        "", ";", "text/plain", "application/jsonx", "application/json-patch+json", "application/ json",
        "xapplication/json", "application/x-www-form-urlencoded", "application/jsón",
    ])
    func notJSON(header: String) {
        #expect(!JSONBody.isJSONMediaType(header))
    }
}
