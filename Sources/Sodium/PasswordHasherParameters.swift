import CSodium

extension PasswordHasher {
    /// Argon2id cost settings: passes over memory, and memory in bytes (parallelism is always 1).
    public struct Parameters: Sendable, Equatable {
        /// Passes over memory (`t` in the PHC string); at least 1.
        public var opsLimit: UInt64
        /// Memory in bytes (`m` in the PHC string, in KiB); at least 8 KiB.
        public var memoryLimit: Int

        /// OWASP's recommended Argon2id minimum: t = 2, 19 MiB (`m=19456,t=2,p=1`).
        public static let `default` = Parameters(opsLimit: 2, memoryLimit: 19 * 1024 * 1024)

        /// Creates parameters; they are checked against libsodium's limits when hashing.
        public init(opsLimit: UInt64, memoryLimit: Int) {
            self.opsLimit = opsLimit
            self.memoryLimit = memoryLimit
        }
    }
}

extension PasswordHasher.Parameters {
    /// Throws ``SodiumError/invalidInput(_:)`` unless libsodium's Argon2id accepts these values.
    func validate() throws(SodiumError) {
        // libsodium's limit getters return size_t while the hashing call takes these types.
        let ops = UInt64(crypto_pwhash_opslimit_min())...UInt64(crypto_pwhash_opslimit_max())
        guard ops.contains(opsLimit) else {
            throw .invalidInput("opsLimit \(opsLimit) is outside \(ops)")
        }
        let memory = crypto_pwhash_memlimit_min()...crypto_pwhash_memlimit_max()
        guard memory.contains(memoryLimit) else {
            throw .invalidInput("memoryLimit \(memoryLimit) bytes is outside \(memory)")
        }
    }
}
