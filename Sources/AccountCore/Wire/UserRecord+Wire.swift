import AccountAPI
import AccountCore
import AccountStore

extension UserRecord {
    /// The account as the API shows it (`GET /auth/me`, and `user` in every token pair).
    package var wire: User {
        User(
            id: id, username: username, email: email, emailVerified: emailVerified, mbti: MBTI(rawValue: mbti) ?? .infp, createdAt: createdAt,
            mfa: SecondFactorStatus(totp: totpEnabled, recoveryCodesLeft: totpEnabled ? recoveryCodesLeft : 0),
            appleLinked: appleLinked, hasPassword: hasPassword)
    }
}
