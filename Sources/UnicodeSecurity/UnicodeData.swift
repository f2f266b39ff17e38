import CICU

/// What ICU's data says about Unicode itself: versions and scripts.
public enum UnicodeData {
    /// The ICU version linked (`"72.1"`).
    public static var icuVersion: String { versionString(cicu_icu_version) }

    /// The Unicode version of ICU's data (`"15.0"`); skeletons may change with it.
    public static var unicodeVersion: String { versionString(cicu_unicode_version) }

    /// The Script_Extensions of `scalar` as ISO 15924 codes (`["Latn"]`, `["Zyyy"]` for Common).
    public static func scriptExtensions(of scalar: Unicode.Scalar) throws -> [String] {
        var status = U_ZERO_ERROR
        var names = [UnsafePointer<CChar>?](repeating: nil, count: 32)
        let count = cicu_script_extensions(UChar32(scalar.value), &names, Int32(names.count), &status)
        try ICUError.check(status, "uscript_getScriptExtensions")
        return names.prefix(Int(count)).compactMap { $0.map { String(cString: $0) } }
    }

    private static func versionString(_ fill: (UnsafeMutablePointer<CChar>) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: Int(U_MAX_VERSION_STRING_LENGTH) + 1)
        buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
