/// Messages of every ``FieldErrorCode``, worded for the field they are about.
///
/// Limits come from the rules, so a changed rule changes its message too.
enum FieldTexts {
    /// The message of `code` on `field`, falling back to a text that fits any field.
    static func text(for code: FieldErrorCode, field: String) -> LocalizedText {
        switch code {
        case .required: required(field)
        case .tooShort: tooShort(field)
        case .tooLong: tooLong(field)
        case .invalidFormat: invalidFormat(field)
        case .invalidChoice: invalidChoice(field)
        case .mismatch: mismatch(field)
        case .tooCommon:
            LocalizedText(
                en: "This password is too common; choose one that is harder to guess.",
                ko: "너무 흔한 비밀번호예요. 추측하기 어려운 비밀번호를 사용해 주세요.")
        case .tooSimilar:
            LocalizedText(
                en: "The password must not contain your nickname or email address.",
                ko: "비밀번호에 닉네임이나 이메일 주소를 넣을 수 없어요.")
        case .taken: taken(field)
        case .invisibleCharacter:
            LocalizedText(
                en: "Remove invisible characters (zero-width spaces, Hangul fillers and the like).",
                ko: "보이지 않는 문자(폭 없는 공백, 한글 채움 문자 등)는 쓸 수 없어요.")
        case .mixedScript:
            LocalizedText(
                en: "Use letters and digits of one script; Latin may be mixed only with Hangul, Han or Japanese kana.",
                ko: "한 가지 문자 체계의 글자와 숫자만 써 주세요. 로마자는 한글, 한자, 일본어 가나와만 함께 쓸 수 있어요.")
        default:
            LocalizedText(en: "This value is not valid.", ko: "입력값이 올바르지 않아요.")
        }
    }

    private static func required(_ field: String) -> LocalizedText {
        switch field {
        case "username": LocalizedText(en: "Enter a nickname.", ko: "닉네임을 입력해 주세요.")
        case "email": LocalizedText(en: "Enter your email address.", ko: "이메일 주소를 입력해 주세요.")
        case "login":
            LocalizedText(en: "Enter your nickname or email address.", ko: "닉네임 또는 이메일 주소를 입력해 주세요.")
        case "password", "new_password": LocalizedText(en: "Enter a password.", ko: "비밀번호를 입력해 주세요.")
        case "current_password":
            LocalizedText(en: "Enter your current password.", ko: "현재 비밀번호를 입력해 주세요.")
        case "password_confirmation":
            LocalizedText(en: "Enter the password again.", ko: "비밀번호를 한 번 더 입력해 주세요.")
        case "mbti": LocalizedText(en: "Choose your MBTI type.", ko: "MBTI 유형을 선택해 주세요.")
        case "code":
            LocalizedText(
                en: "Enter the \(CodeRule.length)-digit code.", ko: "\(CodeRule.length)자리 인증 코드를 입력해 주세요.")
        default: LocalizedText(en: "This field is required.", ko: "필수 항목이에요.")
        }
    }

    private static func tooShort(_ field: String) -> LocalizedText {
        switch field {
        case "username":
            LocalizedText(
                en: "Use at least \(UsernameRule.minLength) characters.",
                ko: "닉네임은 \(UsernameRule.minLength)자 이상이어야 해요.")
        case "password", "new_password":
            LocalizedText(
                en: "Use at least \(PasswordRule.minLength) characters.",
                ko: "비밀번호는 \(PasswordRule.minLength)자 이상이어야 해요.")
        default: LocalizedText(en: "This is too short.", ko: "입력값이 너무 짧아요.")
        }
    }

    private static func tooLong(_ field: String) -> LocalizedText {
        switch field {
        case "username":
            LocalizedText(
                en: "Use at most \(UsernameRule.maxLength) characters.",
                ko: "닉네임은 \(UsernameRule.maxLength)자 이하여야 해요.")
        case "email":
            LocalizedText(
                en: "Use at most \(EmailRule.maxLength) characters.",
                ko: "이메일 주소는 \(EmailRule.maxLength)자 이하여야 해요.")
        case "password", "new_password":
            LocalizedText(
                en: "Use at most \(PasswordRule.maxLength) characters.",
                ko: "비밀번호는 \(PasswordRule.maxLength)자 이하여야 해요.")
        default: LocalizedText(en: "This is too long.", ko: "입력값이 너무 길어요.")
        }
    }

    private static func invalidFormat(_ field: String) -> LocalizedText {
        switch field {
        case "username":
            let symbols = UsernameRule.allowedSymbols.joined(separator: " ")
            return LocalizedText(
                en: "Use only letters, digits and the symbols \(symbols), and not only digits.",
                ko: "닉네임에는 문자, 숫자와 기호 \(symbols) 만 쓸 수 있고, 숫자로만 만들 수는 없어요.")
        case "email":
            return LocalizedText(en: "Enter a valid email address.", ko: "올바른 이메일 주소를 입력해 주세요.")
        case "code":
            return LocalizedText(
                en: "Enter the \(CodeRule.length) digits from the email.",
                ko: "이메일로 받은 \(CodeRule.length)자리 숫자를 입력해 주세요.")
        default:
            return LocalizedText(en: "This format is not valid.", ko: "형식이 올바르지 않아요.")
        }
    }

    private static func invalidChoice(_ field: String) -> LocalizedText {
        switch field {
        case "mbti":
            LocalizedText(
                en: "Choose one of the \(MBTI.allCases.count) MBTI types.",
                ko: "\(MBTI.allCases.count)가지 MBTI 유형 중 하나를 선택해 주세요.")
        default: LocalizedText(en: "Choose one of the allowed values.", ko: "허용된 값 중 하나를 선택해 주세요.")
        }
    }

    private static func mismatch(_ field: String) -> LocalizedText {
        switch field {
        case "password_confirmation":
            LocalizedText(en: "The passwords do not match.", ko: "비밀번호가 일치하지 않아요.")
        default: LocalizedText(en: "The values do not match.", ko: "입력한 값이 일치하지 않아요.")
        }
    }

    private static func taken(_ field: String) -> LocalizedText {
        switch field {
        case "username":
            LocalizedText(en: "This nickname is already taken.", ko: "이미 사용 중인 닉네임이에요.")
        default: LocalizedText(en: "This is already taken.", ko: "이미 사용 중이에요.")
        }
    }
}
