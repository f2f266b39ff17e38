import CICU

/// How many scripts one identifier may mix (UTS #39 §5.2).
public enum RestrictionLevel: Sendable {
    /// ASCII only.
    case ascii
    /// One script (plus Common and Inherited characters such as digits).
    case singleScript
    /// One script, or Latin with Han and Hangul, or with Han, Hiragana and Katakana, or with Han
    /// and Bopomofo.
    case highlyRestrictive
    /// As highly restrictive, or Latin with one other recommended script except Cyrillic, Greek
    /// and Cherokee.
    case moderatelyRestrictive

    var icuValue: URestrictionLevel {
        switch self {
        case .ascii: USPOOF_ASCII
        case .singleScript: USPOOF_SINGLE_SCRIPT_RESTRICTIVE
        case .highlyRestrictive: USPOOF_HIGHLY_RESTRICTIVE
        case .moderatelyRestrictive: USPOOF_MODERATELY_RESTRICTIVE
        }
    }
}
