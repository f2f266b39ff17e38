import AccountAPI
import Foundation
import LibCrypto
import WebFetch

/// Apple's public keys (its JWKS), fetched with libcurl and kept in memory.
///
/// A token naming a key not held makes the set ask Apple again (so a key rotation works at once),
/// but at most once every ``refetchInterval`` however many tokens name unknown keys, and one
/// request at a time (callers wait for the one in flight): random `kid`s cannot make this server
/// hammer Apple. Keys older than ``maximumAge`` are asked for again when next used; a failed
/// fetch keeps the keys held. The reply is bounded (64 KiB, 32 keys) and so is its time (5 s).
package actor AppleKeySet {
    package static let refetchInterval: TimeInterval = 10
    package static let maximumAge: TimeInterval = 3600
    package static let maximumKeys = 32

    private let url: String
    private let fetcher: WebFetcher
    private var keys: [String: RSAPublicKey] = [:]
    private var fetchedAt: Date?
    private var lastAttempt: Date?
    private var inFlight: Task<Void, Never>?
    /// Fetches so far (tests and metrics).
    package private(set) var fetches = 0

    package init(url: String, fetcher: WebFetcher) {
        self.url = url
        self.fetcher = fetcher
    }

    /// What a lookup came to.
    package enum Lookup: Sendable {
        case key(RSAPublicKey)
        /// Apple has no such key (or was asked too recently to ask again).
        case unknown
        /// No key could be had from Apple at all: the fetch failed and none is held.
        case unavailable
    }

    /// The key `kid`, asking Apple when it is not held (or the keys are old) and the last ask was
    /// at least ``refetchInterval`` ago.
    package func key(id: String, now: Date) async -> Lookup {
        let fresh = fetchedAt.map { now.timeIntervalSince($0) < Self.maximumAge } ?? false
        if let key = keys[id], fresh { return .key(key) }
        if inFlight == nil, lastAttempt.map({ now.timeIntervalSince($0) >= Self.refetchInterval || now < $0 }) ?? true {
            lastAttempt = now
            inFlight = Task { await self.refresh(now: now) }
        }
        // The fetch clears `inFlight` itself when it ends; every caller waits for the same one.
        if let inFlight { await inFlight.value }
        if let key = keys[id] { return .key(key) }
        return keys.isEmpty ? .unavailable : .unknown
    }

    private func refresh(now: Date) async {
        fetches += 1
        do {
            let reply = try await fetcher.fetch(WebRequest(url: url, maximumBodySize: 64 * 1024, timeout: 5))
            guard reply.status == 200 else { throw WebFetchError(description: "HTTP \(reply.status)") }
            let parsed = try Self.parse(reply.body)
            keys = parsed
            fetchedAt = now
            Log.event("apple_keys_fetched", ["keys": String(parsed.count)])
        } catch {
            Log.event("apple_keys_unavailable", ["reason": String(describing: error)])
        }
        inFlight = nil
    }

    /// The RSA signing keys of a JWKS, by `kid`; other keys are skipped.
    package static func parse(_ body: [UInt8]) throws -> [String: RSAPublicKey] {
        struct KeySet: Decodable { let keys: [Key] }
        struct Key: Decodable {
            package let kty: String
            package let kid: String?
            package let use: String?
            package let alg: String?
            package let n: String?
            package let e: String?
        }
        guard JOSEJSON.memberNames(body) != nil else { throw WebFetchError(description: "the key set is not one JSON object") }
        let set = try JSONDecoder().decode(KeySet.self, from: Data(body))
        var keys: [String: RSAPublicKey] = [:]
        for key in set.keys.prefix(maximumKeys) where key.kty == "RSA" && (key.use ?? "sig") == "sig" && (key.alg ?? "RS256") == "RS256" {
            guard let kid = key.kid, let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                let publicKey = RSA.publicKey(modulus: n, exponent: e)
            else { continue }
            keys[kid] = publicKey
        }
        guard !keys.isEmpty else { throw WebFetchError(description: "the key set holds no RS256 key") }
        return keys
    }
}
