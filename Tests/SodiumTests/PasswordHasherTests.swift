import Testing
import Sodium

/// Small parameters (libsodium's minimum memory) keep these tests fast; one test uses the defaults.
private let fast = PasswordHasher(parameters: .init(opsLimit: 1, memoryLimit: 8 * 1024))

@Suite("PasswordHasher")
struct PasswordHasherTests {
    @Test("the defaults are OWASP's Argon2id minimum and show up in the PHC string")
    func defaultParameters() throws {
        #expect(PasswordHasher.Parameters.default == .init(opsLimit: 2, memoryLimit: 19_922_944))
        let hasher = PasswordHasher()
        let phc = try hasher.hash("correct horse battery staple")
        #expect(phc.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(hasher.verify("correct horse battery staple", against: phc))
        #expect(!hasher.needsRehash(phc))
    }

    @Test("a PHC string has five $-separated parts: algorithm, version, parameters, salt, hash")
    func phcShape() throws {
        let phc = try fast.hash("hunter2")
        let parts = phc.split(separator: "$", omittingEmptySubsequences: false)
        #expect(parts.count == 6)
        #expect(parts.first == "")
        #expect(Array(parts.dropFirst().prefix(3)) == ["argon2id", "v=19", "m=8,t=1,p=1"])
        #expect(parts.count == 6 && parts[4].count == 22)  // 16-byte salt, unpadded base64
        #expect(parts.count == 6 && parts[5].count == 43)  // 32-byte hash, unpadded base64
    }

    @Test("the same password hashes differently each time (random salt) yet verifies against both")
    func saltedHashes() throws {
        let first = try fast.hash("same password")
        let second = try fast.hash("same password")
        #expect(first != second)
        #expect(fast.verify("same password", against: first))
        #expect(fast.verify("same password", against: second))
    }

    @Test("a wrong password does not verify", arguments: ["hunter3", "Hunter2", "hunter2 ", "", "hunter"])
    func wrongPassword(_ attempt: String) throws {
        let phc = try fast.hash("hunter2")
        #expect(!fast.verify(attempt, against: phc))
    }

    @Test("Korean passwords hash their UTF-8 bytes and verify exactly")
    func koreanPassword() throws {
        let phc = try fast.hash("비밀번호123!")
        #expect(fast.verify("비밀번호123!", against: phc))
        #expect(!fast.verify("비밀번호124!", against: phc))
        #expect(!fast.verify("비밀번호", against: phc))
    }

    @Test("the empty password can be hashed and is told apart from others")
    func emptyPassword() throws {
        let phc = try fast.hash("")
        #expect(fast.verify("", against: phc))
        #expect(!fast.verify(" ", against: phc))
    }

    @Test("verifying uses the parameters stored in the string, not the hasher's own")
    func verifyAcrossParameters() throws {
        let phc = try fast.hash("pässword")
        #expect(PasswordHasher().verify("pässword", against: phc))
    }

    @Test("a hash made with other parameters needs rehashing; one made with ours does not")
    func needsRehash() throws {
        let phc = try fast.hash("secret")
        #expect(!fast.needsRehash(phc))
        #expect(PasswordHasher().needsRehash(phc))
        let moreMemory = PasswordHasher(parameters: .init(opsLimit: 1, memoryLimit: 16 * 1024))
        #expect(moreMemory.needsRehash(phc))
        let morePasses = PasswordHasher(parameters: .init(opsLimit: 2, memoryLimit: 8 * 1024))
        #expect(morePasses.needsRehash(phc))
    }

    @Test("an argon2i string with our parameters still needs rehashing to argon2id")
    func argon2iNeedsRehash() throws {
        let phc = try fast.hash("secret")
        let argon2i = "$argon2i$" + phc.dropFirst("$argon2id$".count)
        #expect(argon2i.hasPrefix("$argon2i$v=19$m=8,t=1,p=1$"))
        #expect(fast.needsRehash(argon2i))
    }

    static let garbage: [String] = [
        "", "$", "$$$$$", "not a hash", "$argon2id$", "$argon2id$v=19$m=8,t=1,p=1$",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$", "$argon2id$v=19$m=x,t=1,p=1$AAAA$AAAA",
        "$argon2id$v=19$m=8,t=1,p=1$!!!!!!!!!!!!!!!!!!!!!!$@@@@", "$2b$12$abcdefghijklmnopqrstuv",
        "$argon2id$v=19$m=8,t=0,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        String(repeating: "A", count: 10_000), "$argon2id$" + String(repeating: "$", count: 500),
        "$argon2id$v=19$m=8,t=1,p=1\0$AAAA$AAAA", "한국어$argon2id$",
    ]

    @Test("garbage PHC strings neither crash nor verify, and always need rehashing", arguments: garbage)
    func garbagePHC(_ phc: String) {
        #expect(!fast.verify("password", against: phc))
        #expect(!fast.verify("", against: phc))
        #expect(fast.needsRehash(phc))
    }

    @Test("a truncated, altered or extended real hash does not verify")
    func tamperedPHC() throws {
        let phc = try fast.hash("password")
        #expect(!fast.verify("password", against: String(phc.dropLast())))
        let flipped = String(phc.dropLast()) + (phc.last == "A" ? "B" : "A")
        #expect(!fast.verify("password", against: flipped))
        #expect(!fast.verify("password", against: phc + "A"))
    }

    @Test(
        "parameters outside libsodium's limits are rejected, not silently changed",
        arguments: [(UInt64(0), 8 * 1024), (UInt64(1), 8 * 1024 - 1), (UInt64(1), -1)])
    func invalidParameters(opsLimit: UInt64, memoryLimit: Int) {
        let hasher = PasswordHasher(parameters: .init(opsLimit: opsLimit, memoryLimit: memoryLimit))
        #expect {
            try hasher.hash("x")
        } throws: { error in
            if case .invalidInput = error as? SodiumError { true } else { false }
        }
    }
}
