import AccountAPI

/// What a wire field is called in messages: `닉네임` or `nickname`, not `username`.
enum FieldLabel {
    static func name(_ field: String, _ language: Language) -> String {
        let ko = language == .ko
        switch field {
        case "username": return ko ? "닉네임" : "nickname"
        case "email": return ko ? "이메일" : "email"
        case "login": return ko ? "닉네임 또는 이메일" : "nickname or email"
        case "password": return ko ? "비밀번호" : "password"
        case "password_confirmation": return ko ? "비밀번호 확인" : "password (again)"
        case "current_password": return ko ? "현재 비밀번호" : "current password"
        case "new_password": return ko ? "새 비밀번호" : "new password"
        case "mbti": return "MBTI"
        case "code": return ko ? "인증 코드" : "code"
        case "email_verification_token": return ko ? "이메일 인증" : "email verification"
        case "purpose": return ko ? "용도" : "purpose"
        default: return field
        }
    }

    /// Field names in the order the forms ask for them; others after, alphabetically.
    static func ordered(_ fields: some Sequence<String>) -> [String] {
        let order = ["login", "username", "email", "current_password", "password", "new_password", "password_confirmation", "mbti", "code"]
        return fields.sorted { (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1) }
    }

    /// "nickname: Use at least 2 characters."
    static func line(_ field: String, _ message: String, _ language: Language) -> String {
        "\(name(field, language)): \(message)"
    }
}
