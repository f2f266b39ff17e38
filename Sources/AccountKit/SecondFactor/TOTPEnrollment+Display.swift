import AccountAPI
import Foundation

extension TOTPEnrollment {
    /// The secret in groups of four (`JBSW Y3DP EHPK 3PXP …`), for typing into an authenticator
    /// app by hand (apps ignore the spaces).
    public var groupedSecret: String {
        var groups: [Substring] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// ``otpauthURI`` as a URL: what the QR code holds, and what "open in authenticator" opens.
    public var otpauthURL: URL? { URL(string: otpauthURI) }
}
