import AccountAPI
import AccountCore

/// The JSON of the most frequent replies and of access tokens, written with ``JSONObjectWriter``:
/// the same bytes as ``JSONCoding/encoder`` gives (tests compare them).
package enum WireJSON {
    /// An account: the reply of `GET /auth/me` and part of every token pair.
    package static func user(_ user: User) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 250 + user.username.utf8.count + user.email.utf8.count)
        if let appleLinked = user.appleLinked { object.bool("apple_linked", appleLinked) }
        object.string("created_at", RFC3339.string(from: user.createdAt))
        object.string("email", user.email)
        object.bool("email_verified", user.emailVerified)
        if let hasPassword = user.hasPassword { object.bool("has_password", hasPassword) }
        object.string("id", user.id.lowercasedText)
        object.string("mbti", user.mbti.rawValue)
        if let mfa = user.mfa { object.json("mfa", secondFactor(mfa)) }
        object.string("username", user.username)
        return object.finish()
    }

    /// An account's second factor, as part of the account.
    package static func secondFactor(_ status: SecondFactorStatus) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 48)
        object.int("recovery_codes_left", status.recoveryCodesLeft)
        object.bool("totp", status.totp)
        return object.finish()
    }

    /// A token pair: the reply of login, refresh and sign-up with a verification token.
    package static func tokenPair(_ pair: TokenPair) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 900)
        object.string("access", pair.access)
        object.int("expires_in", pair.expiresIn)
        object.string("refresh", pair.refresh)
        object.int("refresh_expires_in", pair.refreshExpiresIn)
        object.string("token_type", pair.tokenType)
        object.json("user", user(pair.user))
        return object.finish()
    }

    /// The JOSE header of an access token.
    package static func header(_ header: AccessTokenHeader) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 64)
        object.string("alg", header.alg)
        object.string("kid", header.kid)
        object.string("typ", header.typ)
        return object.finish()
    }

    /// The claims of an access token.
    package static func claims(_ claims: AccessClaims) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 256)
        object.strings("amr", claims.amr)
        object.string("aud", claims.aud)
        object.int("exp", claims.exp)
        object.int("iat", claims.iat)
        object.string("iss", claims.iss)
        object.string("jti", claims.jti)
        if let nbf = claims.nbf { object.int("nbf", nbf) }
        object.string("sid", claims.sid)
        object.string("sub", claims.sub)
        return object.finish()
    }

    /// A page of the operators' account search (`GET /admin/api/users`): fifty rows through
    /// `JSONEncoder` were a quarter of a search's CPU in a profile.
    package static func adminUserPage(_ page: AdminUserPage) -> [UInt8] {
        var users: [UInt8] = [0x5B]
        users.reserveCapacity(page.users.count * 320 + 2)
        for (index, user) in page.users.enumerated() {
            if index > 0 { users.append(0x2C) }
            users.append(contentsOf: adminUser(user))
        }
        users.append(0x5D)
        var object = JSONObjectWriter(capacity: users.count + 2_100)
        if let next = page.next { object.string("next", next) } else { object.json("next", null) }
        object.json("users", users)
        return object.finish()
    }

    /// One row of the operators' account search.
    package static func adminUser(_ user: AdminUser) -> [UInt8] {
        var object = JSONObjectWriter(capacity: 280 + user.username.utf8.count + user.email.utf8.count)
        object.string("created_at", RFC3339.string(from: user.createdAt))
        object.bool("disabled", user.disabled)
        object.string("email", user.email)
        object.bool("email_verified", user.emailVerified)
        object.string("id", user.id)
        object.bool("is_admin", user.isAdmin)
        if let lastLogin = user.lastLoginAt {
            object.string("last_login_at", RFC3339.string(from: lastLogin))
        } else {
            object.json("last_login_at", null)
        }
        object.string("mbti", user.mbti)
        object.bool("mfa_enabled", user.mfaEnabled)
        object.string("username", user.username)
        return object.finish()
    }

    private static let null = Array("null".utf8)
}
