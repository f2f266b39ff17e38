/// What can go wrong inside the `Sodium` module.
public enum SodiumError: Error, Equatable {
    /// `sodium_init()` failed, so no primitive can be used safely (usually: no system randomness).
    case initializationFailed
    /// Argon2id could not produce a hash (out of memory, or libsodium rejected the parameters).
    case hashingFailed
    /// Key material has the wrong size or shape.
    case invalidKey
    /// An argument is outside what the primitive accepts; the text says which and why.
    case invalidInput(String)
}
