import AccountAPI
import AccountCore
import AccountStore
import Foundation

/// The admin API's replies made from what the store read.
extension AdminUserRow {
    var wire: AdminUser {
        AdminUser(
            id: user.id.lowercasedText, username: user.username, email: user.email, mbti: user.mbti,
            emailVerified: user.emailVerified, mfaEnabled: user.totpEnabled, disabled: user.disabledAt != nil,
            isAdmin: user.isAdmin, createdAt: user.createdAt, lastLoginAt: lastLoginAt)
    }
}

extension AdminSearchPage {
    /// A page of the search, its cursor opaque.
    var wire: AdminUserPage { AdminUserPage(users: rows.map(\.wire), next: next.map(PageCursor.text)) }
}

extension AdminAccount {
    /// The account page.
    var wire: AdminAccountPage {
        AdminAccountPage(
            user: AdminUserDetail(row: row.wire, disabledAt: row.user.disabledAt),
            sessions: sessions.map {
                AdminSession(id: $0.id.lowercasedText, deviceName: $0.userAgent, clientAddress: $0.clientAddress, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt)
            },
            passkeys: passkeys.map { AdminPasskey(id: $0.id.lowercasedText, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) },
            secondFactor: AdminSecondFactor(totp: row.user.totpEnabled, recoveryCodesLeft: row.user.recoveryCodesLeft),
            events: events.map(SecurityEventRoutes.wire))
    }
}
