/// One text in every ``Language`` the API speaks.
struct LocalizedText: Sendable, Equatable {
    let en: String
    let ko: String

    /// The text in `language`.
    func callAsFunction(_ language: Language) -> String {
        switch language {
        case .en: en
        case .ko: ko
        }
    }
}
