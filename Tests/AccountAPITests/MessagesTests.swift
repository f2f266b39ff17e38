import AccountAPI
import Testing

/// Every code of the catalog: those the server sends and the SDK's own.
let allErrorCodes: [ErrorCode] = ErrorCatalog.entries.map(\.code)

let allFieldErrorCodes: [FieldErrorCode] = ErrorCatalog.fieldEntries.map(\.code)

/// Codes that share the title of another on purpose: an operator's missing second factor is
/// "Second factor needed" like a login's.
let sharedTitles: Set<ErrorCode> = [.secondFactorRequired]

let wireFields = ["username", "email", "password", "password_confirmation", "mbti", "code", "login", "other"]

/// Whether `text` holds a Hangul syllable.
func hasHangul(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
}

@Suite("Messages")
struct MessagesTests {
    @Test("Each code has its own title and detail in each language", arguments: Language.allCases)
    func error_texts_are_distinct(_ language: Language) {
        let titles = allErrorCodes.filter { !sharedTitles.contains($0) }.map { Messages.title($0, language) }
        let details = allErrorCodes.map { Messages.detail($0, language) }
        #expect(allErrorCodes.count >= 45)
        #expect(Set(titles).count == titles.count)
        #expect(Messages.title(.secondFactorRequired, language) == Messages.title(.mfaRequired, language))
        #expect(Set(details).count == allErrorCodes.count)
        let generic = Messages.title(ErrorCode("brand_new"), language)
        #expect(!generic.isEmpty && !titles.contains(generic))
        #expect(!Messages.detail(ErrorCode("brand_new"), language).isEmpty)
    }

    @Test func korean_is_korean_and_consistently_polite() {
        for code in allErrorCodes + [ErrorCode("brand_new")] {
            let title = Messages.title(code, .ko), detail = Messages.detail(code, .ko)
            #expect(hasHangul(title) && hasHangul(detail), "\(code)")
            // 해요체 throughout: every title ends in 요, every sentence in 요.
            #expect(title.hasSuffix("요"), "\(code): \(title)")
            #expect(detail.hasSuffix("요."), "\(code): \(detail)")
            #expect(Messages.title(code, .en) != title)
        }
        for code in allFieldErrorCodes + [FieldErrorCode("brand_new")] {
            for field in wireFields {
                let text = Messages.field(code, field: field, .ko)
                #expect(hasHangul(text) && text.hasSuffix("요."), "\(code) \(field): \(text)")
            }
        }
    }

    @Test func english_sentences_end_with_a_full_stop() {
        for code in allErrorCodes {
            #expect(Messages.detail(code, .en).hasSuffix("."))
            #expect(!hasHangul(Messages.title(code, .en)))
        }
        for code in allFieldErrorCodes + [FieldErrorCode("brand_new")] {
            for field in wireFields {
                let text = Messages.field(code, field: field, .en)
                #expect(!text.isEmpty && text.hasSuffix(".") && !hasHangul(text), "\(code) \(field)")
            }
        }
    }

    @Test func each_field_code_has_its_own_generic_text() {
        for language in Language.allCases {
            let texts = allFieldErrorCodes.map { Messages.field($0, field: "other", language) }
            #expect(Set(texts).count == texts.count)
            #expect(!texts.contains(Messages.field(FieldErrorCode("brand_new"), field: "other", language)))
        }
    }

    @Test func the_documented_examples() {
        #expect(Messages.title(.validationFailed, .en) == "Validation failed")
        #expect(Messages.title(.validationFailed, .ko) == "입력값을 확인해 주세요")
        #expect(Messages.detail(.validationFailed, .en) == "Some fields are invalid.")
        #expect(Messages.field(.tooShort, field: "password", .en) == "Use at least 8 characters.")
        #expect(Messages.field(.required, field: "mbti", .en) == "Choose your MBTI type.")
    }

    @Test func field_texts_carry_the_rule_limits() {
        for language in Language.allCases {
            #expect(Messages.field(.tooShort, field: "username", language).contains("\(UsernameRule.minLength)"))
            #expect(Messages.field(.tooLong, field: "username", language).contains("\(UsernameRule.maxLength)"))
            #expect(Messages.field(.tooShort, field: "password", language).contains("\(PasswordRule.minLength)"))
            #expect(Messages.field(.tooLong, field: "password", language).contains("\(PasswordRule.maxLength)"))
            #expect(Messages.field(.tooLong, field: "email", language).contains("\(EmailRule.maxLength)"))
            #expect(Messages.field(.invalidFormat, field: "code", language).contains("\(CodeRule.length)"))
            #expect(Messages.field(.invalidChoice, field: "mbti", language).contains("16"))
        }
    }

    @Test func field_texts_differ_by_field() {
        #expect(Messages.field(.required, field: "mbti", .ko) != Messages.field(.required, field: "email", .ko))
        #expect(Messages.field(.taken, field: "username", .en) != Messages.field(.taken, field: "other", .en))
        #expect(Messages.field(.invalidFormat, field: "email", .en) != Messages.field(.invalidFormat, field: "username", .en))
    }
}
