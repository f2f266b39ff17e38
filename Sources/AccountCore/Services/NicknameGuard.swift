import AccountAPI
import AccountStore
import Foundation
import UnicodeSecurity

/// The nickname rules only the server checks, with ICU's spoof checker (UTS #39): scripts mixed
/// beyond "highly restrictive" (Cyrillic `а` in Latin `admin`; Latin with Hangul, Han or kana is
/// fine) or digits of two number systems are `mixed_script`, and reserved names and other
/// accounts are compared by confusable skeleton, so `admın` is a reserved name and `rnina` is
/// taken when `mina` exists.
///
/// A nickname has two skeletons, because case folding and look-alikes pull apart: `ADMIN` is
/// `admin` only once folded, while `paypaI` (capital i) is `paypal` only as shown. Both are
/// unique among accounts (see ``UserRecord``).
package struct NicknameGuard: Sendable {
    /// A nickname's two skeletons, each folded afterwards (prototypes can be capitals: `0` is `O`).
    package struct Skeletons: Equatable, Sendable {
        /// Of the case-folded key: `ADMIN`, `admın` and `аdmin` are all `admin`.
        package let folded: String
        /// Of the name as shown: `paypaI` is `paypal`.
        package let displayed: String
    }

    private let checker: SpoofChecker
    /// Skeletons of the reserved names in lower, upper and title case, so `ADMlN` (small L) is
    /// reserved as a look-alike of `ADMIN`.
    private let reservedSkeletons: Set<String>

    /// - Throws: `ICUError` when ICU's confusables data cannot be loaded.
    package init() throws {
        let checker = try SpoofChecker(restrictionLevel: .highlyRestrictive)
        self.checker = checker
        reservedSkeletons = Set(try UsernameRule.reserved.flatMap { name in
            try [name, name.uppercased(), name.capitalized].map { try Self.skeleton(of: $0, checker) }
        })
    }

    /// Every error of a raw nickname: ``UsernameRule``'s, then the server's own.
    package func validate(_ raw: String) throws -> [FieldErrorCode] {
        let codes = UsernameRule.validate(raw)
        return codes.isEmpty ? try serverErrors(raw) : codes
    }

    /// The errors only the server finds, for a nickname that passed ``UsernameRule``.
    package func serverErrors(_ raw: String) throws -> [FieldErrorCode] {
        let name = UsernameRule.normalize(raw)
        if try !checker.check(name).isEmpty { return [.mixedScript] }
        let skeletons = try skeletons(of: name)
        if reservedSkeletons.contains(skeletons.folded) || reservedSkeletons.contains(skeletons.displayed) { return [.taken] }
        return []
    }

    /// The two skeletons of a normalized nickname.
    package func skeletons(of normalized: String) throws -> Skeletons {
        Skeletons(
            folded: try Self.skeleton(of: UsernameRule.key(normalized), checker),
            displayed: try Self.skeleton(of: normalized, checker))
    }

    /// Whether another account has a nickname that looks like `user`'s: either of its skeletons
    /// equal to either of another's.
    package func isTaken(_ user: UserRecord, in tx: any StoreTransaction) throws -> Bool {
        if let other = try tx.user(usernameKey: user.usernameKey), other.id != user.id { return true }
        for skeleton in Set([user.usernameSkeleton, user.usernameDisplaySkeleton].compactMap { $0 }) {
            for kind in SkeletonKind.allCases {
                if let other = try tx.user(usernameSkeleton: skeleton, kind: kind), other.id != user.id { return true }
            }
        }
        return false
    }

    private static func skeleton(of text: String, _ checker: SpoofChecker) throws -> String {
        UsernameRule.key(try checker.skeleton(text))
    }
}
