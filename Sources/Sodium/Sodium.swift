import CSodium

/// The libsodium library itself: start-up, and the one place its return codes are interpreted.
///
/// Every entry point of this module calls ``initialize()`` itself, so callers never need to:
/// ```swift
/// Sodium.initialize()   // optional: fail fast at start-up rather than on first use
/// ```
public enum Sodium {
    // A global `let` is initialised exactly once and thread-safely by the runtime, which makes
    // the later calls a cheap load. sodium_init() returns 0 (done), 1 (already done) or -1.
    private static let initializationCode: Int32 = sodium_init()

    /// Initialises libsodium once; later calls are cheap. Traps if libsodium cannot start.
    public static func initialize() {
        // Without a working random source nothing here is safe to use, and the non-throwing
        // entry points (random bytes, signing) have no way to report it: stop loudly instead.
        precondition(initializationCode >= 0, "sodium_init() failed: libsodium cannot be used")
    }

    /// Initialises libsodium, reporting failure as an error instead of trapping.
    /// - Throws: ``SodiumError/initializationFailed`` if `sodium_init()` failed.
    public static func initializeOrThrow() throws {
        guard initializationCode >= 0 else { throw SodiumError.initializationFailed }
    }
}

// MARK: - The return-code gate

extension Sodium {
    /// Throws `error` unless a libsodium call returned 0, its only success code.
    static func check(_ code: Int32, else error: SodiumError) throws(SodiumError) {
        guard code == 0 else { throw error }
    }

    /// Whether a libsodium call that answers a question (verify, compare) answered "yes" (0).
    static func succeeded(_ code: Int32) -> Bool {
        (try? check(code, else: .invalidInput("answer was no"))) != nil
    }

    /// For calls libsodium documents as always returning 0 (hashing, signing with a valid key):
    /// another code means a broken library, which no caller could handle, so it traps.
    static func checkInfallible(_ code: Int32, _ function: StaticString) {
        do {
            try check(code, else: .invalidInput("\(function)"))
        } catch {
            preconditionFailure("\(function) returned \(code), which libsodium documents as impossible")
        }
    }
}
