import CICU

/// The UTS #39 checks an identifier failed (ICU's `USpoofChecks` bits that ``SpoofChecker`` runs).
public struct SpoofChecks: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Its scripts go beyond the checker's restriction level (UTS #39 §5.2): Cyrillic `а` in
    /// Latin `admin`, for example.
    public static let restrictionLevel = SpoofChecks(rawValue: Int32(USPOOF_RESTRICTION_LEVEL.rawValue))
    /// It mixes digits of different number systems (UTS #39 §5.3): `1` beside `１`, for example.
    public static let mixedNumbers = SpoofChecks(rawValue: Int32(USPOOF_MIXED_NUMBERS.rawValue))
}
