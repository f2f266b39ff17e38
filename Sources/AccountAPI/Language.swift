/// A language the API speaks: problem texts, field messages and mail are in Korean or English.
public enum Language: String, Sendable, CaseIterable, Codable {
    case en
    case ko

    /// Picks the best supported language from an `Accept-Language` header (RFC 9110 §12.5.4),
    /// honouring `q` weights; English when nothing fits or the header is absent.
    ///
    /// `Language(acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.8")` is `.ko`.
    package init(acceptLanguage: String?) {
        guard let header = acceptLanguage, !header.isEmpty else {
            self = .en
            return
        }
        var best: (language: Language, weight: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            guard weight > 0 else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            guard let language = Language(rawValue: primary) else { continue }
            // Earlier items win ties (strictly greater below), as header order expresses preference too.
            if best == nil || weight > best!.weight { best = (language, weight) }
        }
        self = best?.language ?? .en
    }
}

import Foundation
