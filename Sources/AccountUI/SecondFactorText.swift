/// How the second-factor screens write secrets for people: the authenticator key in groups of
/// four (as authenticator apps print it), the recovery codes one a line for copying and sharing.
///
/// ```swift
/// SecondFactorText.grouped("JBSWY3DPEHPK3PXP")        // "JBSW Y3DP EHPK 3PXP"
/// SecondFactorText.recoveryCodes(["abcde-12345", "fghij-67890"])   // "abcde-12345\nfghij-67890\n"
/// ```
public enum SecondFactorText {
    /// `secret` in groups of `size` characters with a space between, for reading and typing by hand
    /// (authenticator apps ignore the spaces); what is copied stays the secret itself.
    public static func grouped(_ secret: String, size: Int = 4) -> String {
        guard size > 0 else { return secret }
        var groups: [Substring] = []
        var rest = Substring(secret.filter { !$0.isWhitespace })
        while !rest.isEmpty {
            groups.append(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        return groups.joined(separator: " ")
    }

    /// The codes one a line (with a final newline), as "copy all" and "share" give them: a text a
    /// password manager's note or a printout keeps as it is.
    public static func recoveryCodes(_ codes: [String]) -> String {
        codes.map { $0 + "\n" }.joined()
    }
}
