import Foundation
import Sodium
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("The verified-token cache")
struct VerifiedTokenCacheTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let verified = TokenService.Verified(userID: UUID(), sessionID: UUID())

    @Test("a token is found by its exact bytes only, until it expires")
    func exactBytesUntilExpiry() {
        let cache = VerifiedTokenCache()
        cache.store(VerifiedTokenCache.key("aaa.bbb.ccc"), verified, validUntil: now.addingTimeInterval(60), now: now)
        #expect(cache.lookup(VerifiedTokenCache.key("aaa.bbb.ccc"), now: now)?.sessionID == verified.sessionID)
        #expect(cache.lookup(VerifiedTokenCache.key("aaa.bbb.ccd"), now: now) == nil)
        #expect(cache.lookup(VerifiedTokenCache.key("aaa.bbb.cc"), now: now) == nil)
        #expect(cache.lookup(VerifiedTokenCache.key("aaa.bbb.ccc"), now: now.addingTimeInterval(60)) == nil)
        #expect(cache.count == 0, "an expired entry is dropped when looked up")
    }

    @Test("it never holds more than its capacity, and keeps working when full")
    func bounded() {
        let cache = VerifiedTokenCache(shards: 4, capacity: 64)
        for index in 0..<1000 {
            cache.store(VerifiedTokenCache.key("token-\(index)"), verified, validUntil: now.addingTimeInterval(900), now: now)
            #expect(cache.count <= 64)
        }
        let last = VerifiedTokenCache.key("token-999")
        #expect(cache.lookup(last, now: now) != nil)
    }

    @Test("keys are the BLAKE2b-256 of the token, equal for equal bytes")
    func keys() {
        #expect(VerifiedTokenCache.key("x") == VerifiedTokenCache.key("x"))
        #expect(VerifiedTokenCache.key("x") != VerifiedTokenCache.key("y"))
        #expect(Set((0..<500).map { VerifiedTokenCache.key("t\($0)") }).count == 500)
        // Hashed where the string's bytes lie: the key's bytes are the digest of a copy of them,
        // for short (inline) strings, long ones, non-ASCII ones and a substring's copy.
        let long = String(repeating: "eyJhbGciOiJFZERTQSJ9.", count: 20)
        for token in ["", "x", "aaa.bbb.ccc", long, "토큰.é.\u{1F600}", String(long.dropFirst(3))] {
            let key = VerifiedTokenCache.key(token)
            #expect(withUnsafeBytes(of: key.words) { Array($0) } == Digest.blake2b256(Array(token.utf8)), "\(token)")
        }
    }
}
