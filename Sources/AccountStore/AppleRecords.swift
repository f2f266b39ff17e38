import Foundation

/// An Apple ID linked to an account (Sign in with Apple): one a account, one account an Apple ID.
public struct AppleIdentityRecord: Sendable, Equatable {
    /// Apple's stable user id (`sub` of its identity tokens) for this team; unique.
    public var subject: String
    public var userID: UUID
    /// The client id (bundle id) Apple issued the grant to: what revoking it names.
    public var clientID: String
    /// The address Apple gave (a private relay address included), as it was at linking.
    public var email: String
    /// Apple's refresh token for the grant, sealed by the server (see `SecretSeal`); `nil` when the
    /// app sent no authorization code or the exchange failed.
    public var sealedRefreshToken: [UInt8]?
    public var createdAt: Date

    public init(subject: String, userID: UUID, clientID: String, email: String, sealedRefreshToken: [UInt8]?, createdAt: Date) {
        self.subject = subject
        self.userID = userID
        self.clientID = clientID
        self.email = email
        self.sealedRefreshToken = sealedRefreshToken
        self.createdAt = createdAt
    }
}

/// A new Apple user waiting for a nickname and MBTI type (`403 profile_required`): what the
/// verified identity token said, under the SHA-256 of the continuation token; single use.
public struct AppleContinuationRecord: Sendable, Equatable {
    /// SHA-256 of the continuation token.
    public var hash: [UInt8]
    public var subject: String
    public var clientID: String
    public var email: String
    public var sealedRefreshToken: [UInt8]?
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        hash: [UInt8], subject: String, clientID: String, email: String, sealedRefreshToken: [UInt8]?, createdAt: Date, expiresAt: Date
    ) {
        self.hash = hash
        self.subject = subject
        self.clientID = clientID
        self.email = email
        self.sealedRefreshToken = sealedRefreshToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// An Apple identity token that was accepted: the SHA-256 of what Apple signed (its header and
/// claims as sent), kept until the token could no longer be accepted anyway, so each token is
/// accepted once.
public struct UsedAppleTokenRecord: Sendable, Equatable {
    public var hash: [UInt8]
    /// When the token stops being accepted (its `exp` with the allowed skew): the row may go then.
    public var expiresAt: Date

    public init(hash: [UInt8], expiresAt: Date) {
        self.hash = hash
        self.expiresAt = expiresAt
    }
}
