import CICU

/// An ICU call that failed, with ICU's name for the error (`U_ILLEGAL_ARGUMENT_ERROR`).
public struct ICUError: Error, Equatable, CustomStringConvertible {
    /// What was being done (`"uspoof_open"`).
    public let operation: String
    /// ICU's error name.
    public let name: String

    public var description: String { "\(operation): \(name)" }

    /// Throws when `status` is a failure; ICU's warnings (negative codes) pass.
    static func check(_ status: UErrorCode, _ operation: String) throws {
        guard cicu_failed(status) != 0 else { return }
        throw ICUError(operation: operation, name: String(cString: cicu_error_name(status)))
    }
}
