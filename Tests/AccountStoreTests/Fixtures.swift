import AccountStore
import Foundation
import TestSupport

/// Records for tests, with times on whole milliseconds so every backend returns them unchanged.
enum Fixture {
    /// 2023-11-14T22:13:20.123Z plus `seconds`.
    static func time(_ seconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(1_700_000_000_123 + Int64(seconds) * 1_000) / 1_000)
    }

    /// An account whose skeletons are its own (made of its id), so no two fixtures are alike by
    /// accident; a test of look-alikes sets them.
    static func user(_ name: String, email: String? = nil) -> UserRecord {
        let email = email ?? "\(name)@example.com"
        let id = UUID()
        return UserRecord(
            id: id, username: name, usernameKey: name.lowercased(), email: email,
            emailKey: email.lowercased(), passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
            mbti: "INTJ", emailVerified: false, createdAt: time(), updatedAt: time(),
            usernameSkeleton: "folded:\(id.uuidString)", usernameDisplaySkeleton: "displayed:\(id.uuidString)")
    }

    static func session(
        of user: UserRecord, createdAt: Date = time(), userAgent: String? = "Tests/1.0", clientAddress: String? = nil
    ) -> SessionRecord {
        SessionRecord(
            id: UUID(), userID: user.id, createdAt: createdAt, lastUsedAt: createdAt,
            expiresAt: createdAt.addingTimeInterval(30 * 86_400), userAgent: userAgent, clientAddress: clientAddress)
    }

    /// 32 bytes standing in for a SHA-256, distinct per `seed`.
    static func hash(_ seed: UInt8) -> [UInt8] {
        (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 31 &+ Int(seed)) }
    }

    static func code(_ emailKey: String, purpose: String = "signup", seed: UInt8 = 1) -> CodeRecord {
        CodeRecord(
            emailKey: emailKey, purpose: purpose, codeHash: hash(seed), createdAt: time(),
            expiresAt: time(600))
    }

    static func mail(to recipient: String = "mina@example.com", createdAt: Date = time(), due: Date = time()) -> OutboxMessage {
        OutboxMessage(
            id: UUID(), recipient: recipient, subject: "Your code", body: "123456", createdAt: createdAt,
            nextAttemptAt: due)
    }
}

/// An error a test body throws on purpose.
struct Planned: Error, Equatable {}

/// Holds a value across a `@Sendable` boundary in tests that need to smuggle one out.
final class Box<T>: @unchecked Sendable {
    var value: T?
}

extension InlineAnswer {
    /// What the inline read answered; throws when it was busy, which no single-threaded test expects.
    func answer() throws -> Value {
        guard case .answered(let value) = self else { throw TestFailure("the inline read was busy") }
        return value
    }
}
