/// `PATCH /auth/me`: change the nickname and/or the MBTI type; absent fields stay as they are.
public struct UpdateProfileRequest: Codable, Hashable, Sendable {
    public var username: String?
    /// One of the 16 types in any letter case; kept as text so a bad value is a field error.
    public var mbti: String?

    public init(username: String? = nil, mbti: MBTI? = nil) {
        self.username = username
        self.mbti = mbti?.rawValue
    }
}
