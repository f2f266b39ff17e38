/// One text in every ``Language`` the API speaks: the texts of error codes and field errors here,
/// and the server's more specific problem details.
///
/// ```swift
/// let text = LocalizedText(en: "Sign in first.", ko: "먼저 로그인해 주세요.")
/// text(.ko)  // "먼저 로그인해 주세요."
/// ```
public struct LocalizedText: Sendable, Equatable {
    public let en: String
    public let ko: String

    public init(en: String, ko: String) {
        self.en = en
        self.ko = ko
    }

    /// The text in `language`.
    public func callAsFunction(_ language: Language) -> String {
        switch language {
        case .en: en
        case .ko: ko
        }
    }
}
