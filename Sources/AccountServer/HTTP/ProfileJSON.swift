import AccountAPI

/// The JSON of an account, written directly: the reply of `GET /auth/me`.
///
/// `JSONEncoder` took a sixth of the server's time on `/auth/me` in the profile. This writes the
/// very same bytes as ``JSONCoding/encoder`` (sorted keys, slashes not escaped, the same escapes);
/// a test compares the two over every ASCII character and assorted Unicode.
enum ProfileJSON {
    static func bytes(_ user: User) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + user.username.utf8.count + user.email.utf8.count)
        append(#"{"created_at":"#, to: &out)
        string(RFC3339.string(from: user.createdAt), to: &out)
        append(#","email":"#, to: &out)
        string(user.email, to: &out)
        append(#","email_verified":"#, to: &out)
        append(user.emailVerified ? "true" : "false", to: &out)
        append(#","id":""#, to: &out)
        append(user.id.lowercasedText, to: &out)
        append(#"","mbti":"#, to: &out)
        string(user.mbti.rawValue, to: &out)
        append(#","username":"#, to: &out)
        string(user.username, to: &out)
        out.append(0x7D)
        return out
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string literal, escaped as Foundation's encoder escapes it.
    private static func string(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, 0x62])
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20: out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }
}
