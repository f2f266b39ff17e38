import Foundation

/// The bundled list of common passwords (`Resources/common-passwords.txt`), one lower-case
/// password a line, read once on first use.
enum CommonPasswords {
    /// Every listed password, lower case. A `static let` is initialized once, thread-safely, on
    /// first use, so the 8,000-line file is read only when a password is first checked.
    static let all: Set<String> = load()

    private static func load() -> Set<String> {
        guard
            let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            // Without the list `too_common` would silently stop working; a broken build must
            // not look like a working one.
            preconditionFailure("AccountAPI: common-passwords.txt is missing from the bundle")
        }
        var passwords = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            let password = line.trimmingCharacters(in: .whitespaces)
            if !password.isEmpty { passwords.insert(password.nfc.lowercased()) }
        }
        return passwords
    }
}
