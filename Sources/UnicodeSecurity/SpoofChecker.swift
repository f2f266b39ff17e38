import CICU

/// Unicode identifier security (UTS #39) by ICU's spoof checker: which scripts an identifier
/// mixes, and its confusable skeleton.
///
/// One checker serves every thread: ICU's checks and skeletons take the checker `const` and are
/// documented thread safe once it is configured, which happens only in `init`.
///
/// ```swift
/// let checker = try SpoofChecker()
/// try checker.check("аdmin")      // [.restrictionLevel]: Cyrillic а inside Latin
/// try checker.skeleton("аdmin")   // "admin"
/// ```
public final class SpoofChecker: @unchecked Sendable {
    private let handle: OpaquePointer

    /// A checker for `level` that also refuses mixed number systems.
    ///
    /// - Throws: ``ICUError`` when ICU cannot open its confusables data.
    public init(restrictionLevel level: RestrictionLevel = .highlyRestrictive) throws {
        var status = U_ZERO_ERROR
        let opened = cicu_spoof_open(&status)
        try ICUError.check(status, "uspoof_open")
        guard let opened else { throw ICUError(operation: "uspoof_open", name: "no checker") }
        handle = opened
        cicu_spoof_set_restriction_level(handle, level.icuValue)
        cicu_spoof_set_checks(handle, SpoofChecks.restrictionLevel.union(.mixedNumbers).rawValue, &status)
        do {
            try ICUError.check(status, "uspoof_setChecks")
        } catch {
            cicu_spoof_close(handle)
            throw error
        }
    }

    deinit { cicu_spoof_close(handle) }

    /// The checks `identifier` fails; empty when it passes.
    ///
    /// - Throws: ``ICUError`` (ICU refuses only malformed input, which a Swift string never is).
    public func check(_ identifier: String) throws -> SpoofChecks {
        var status = U_ZERO_ERROR
        var text = identifier
        let bits = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                cicu_spoof_check_utf8(handle, chars.baseAddress, Int32(chars.count), &status)
            }
        }
        try ICUError.check(status, "uspoof_check2")
        return SpoofChecks(rawValue: bits).intersection([.restrictionLevel, .mixedNumbers])
    }

    /// The confusable skeleton of `identifier` (UTS #39 §4): equal for texts that look alike,
    /// `"admin"` for `"аdmin"` (Cyrillic а) and `"admın"` (dotless ı). It is case-sensitive and
    /// meant only for comparing; fold case first to compare ignoring case.
    ///
    /// - Throws: ``ICUError``.
    public func skeleton(_ identifier: String) throws -> String {
        var text = identifier
        return try text.withUTF8 { utf8 in
            try utf8.withMemoryRebound(to: CChar.self) { chars in
                // Prototypes are rarely longer than their character; grow once if one is.
                var capacity = Int32(chars.count * 2 + 16)
                while true {
                    var status = U_ZERO_ERROR
                    var out = [CChar](repeating: 0, count: Int(capacity))
                    let length = cicu_spoof_skeleton_utf8(handle, chars.baseAddress, Int32(chars.count), &out, capacity, &status)
                    if status == U_BUFFER_OVERFLOW_ERROR {
                        capacity = length + 1
                        continue
                    }
                    try ICUError.check(status, "uspoof_getSkeleton")
                    return String(decoding: out[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
        }
    }
}
