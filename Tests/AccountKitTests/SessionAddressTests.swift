import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// `SessionInfo.clientAddress`: read from `client_address`, `null` and a missing member (a server
/// from before it was kept) both as `nil`, and written back as the API writes it.
@Suite struct SessionAddressTests {
    static func decode(_ members: String) throws -> SessionInfo {
        let json = """
            {"id":"0c3a5e77-1b2d-4e8f-a9c0-7d6b5a4e3f21","created_at":"2026-11-30T04:46:45Z",\
            "last_used_at":"2026-11-30T05:00:00Z","user_agent":"curl/8.5.0","current":true\(members)}
            """
        return try AccountJSON.makeDecoder().decode(SessionInfo.self, from: Data(json.utf8))
    }

    @Test func readsTheAddressAndToleratesItsAbsence() throws {
        #expect(try Self.decode(#","client_address":"2001:db8::1""#).clientAddress == "2001:db8::1")
        #expect(try Self.decode(#","client_address":null"#).clientAddress == nil)
        let older = try Self.decode("")
        #expect(older.clientAddress == nil && older.current && older.userAgent == "curl/8.5.0")
    }

    @Test func writesItBackAsTheAPIDoes() throws {
        let info = try Self.decode(#","client_address":"203.0.113.7""#)
        let object = try #require(
            try JSONSerialization.jsonObject(with: try AccountJSON.makeEncoder().encode(info)) as? [String: Any])
        #expect(object["client_address"] as? String == "203.0.113.7")
        let unknown = SessionInfo(id: info.id, createdAt: info.createdAt, lastUsedAt: info.lastUsedAt, userAgent: nil, current: false)
        let written = try #require(
            try JSONSerialization.jsonObject(with: try AccountJSON.makeEncoder().encode(unknown)) as? [String: Any])
        #expect(written.keys.contains("client_address") && written["client_address"] is NSNull)
        #expect(try AccountJSON.makeDecoder().decode(SessionInfo.self, from: try AccountJSON.makeEncoder().encode(info)) == info)
    }
}
