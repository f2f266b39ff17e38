/// `PATCH /auth/me`: change the nickname and/or the MBTI type; absent fields stay as they are.
public struct UpdateProfileRequest: Codable, Hashable, Sendable {
    /// The new nickname, or `nil` to keep it.
    public var username: String?
    /// One of the 16 types in any letter case, or `nil` to keep it; kept as text so a bad value is
    /// a field error (the initializer takes ``MBTI``).
    public var mbti: String?

    /// - Parameters:
    ///   - username: the new nickname; `nil` keeps it.
    ///   - mbti: the new type; `nil` keeps it.
    public init(username: String? = nil, mbti: MBTI? = nil) {
        self.username = username
        self.mbti = mbti?.rawValue
    }
}
