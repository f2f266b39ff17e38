import AccountAPI
import Foundation
import Testing

@Suite("Sign-up rules and FieldErrors")
struct SignUpRulesTests {
    @Test func a_good_request_has_no_errors() {
        let errors = SignUpRules.validate(
            username: "김민수", email: "mina@example.com", password: "correct horse",
            passwordConfirmation: "correct horse", mbti: "enfp")
        #expect(errors.isEmpty)
        #expect(errors == FieldErrors())
    }

    @Test func nil_fields_are_required_and_confirmation_is_optional() {
        let errors = SignUpRules.validate(username: nil, email: nil, password: nil, passwordConfirmation: nil, mbti: nil)
        #expect(errors.byField == [
            "username": [.required], "email": [.required], "password": [.required], "mbti": [.required],
        ])
    }

    @Test func every_field_reports_its_own_errors() {
        let errors = SignUpRules.validate(
            username: "a", email: "nope", password: "short", passwordConfirmation: "other", mbti: "ABCD")
        #expect(errors["username"] == [.tooShort])
        #expect(errors["email"] == [.invalidFormat])
        #expect(errors["password"] == [.tooShort])
        #expect(errors["password_confirmation"] == [.mismatch])
        #expect(errors["mbti"] == [.invalidChoice])
        #expect(errors["unknown"] == [])
    }

    @Test func password_is_checked_against_the_given_nickname_and_email() {
        let errors = SignUpRules.validate(
            username: "Mina", email: "joe@example.com", password: "ilovemina!!", passwordConfirmation: nil,
            mbti: "INTJ")
        #expect(errors.byField == ["password": [.tooSimilar]])
        let byEmail = SignUpRules.validate(
            username: "Mina", email: "joe@example.com", password: "joejoe!!", passwordConfirmation: nil, mbti: "INTJ")
        #expect(byEmail.byField == ["password": [.tooSimilar]])
    }

    @Test func confirmation_compares_canonically() {
        let nfc = "가나다라마바사아"
        let errors = SignUpRules.validate(
            username: "mina", email: "mina@example.com", password: nfc,
            passwordConfirmation: nfc.decomposedStringWithCanonicalMapping, mbti: "ENFP")
        #expect(errors.isEmpty)
        let empty = SignUpRules.validate(
            username: "mina", email: "mina@example.com", password: nfc, passwordConfirmation: "", mbti: "ENFP")
        #expect(empty.byField == ["password_confirmation": [.mismatch]])
    }

    @Test func field_errors_keep_order_skip_duplicates_and_merge() {
        var errors = FieldErrors()
        #expect(errors.isEmpty)
        errors.add(.tooShort, to: "password")
        errors.add(.tooCommon, to: "password")
        errors.add(.tooShort, to: "password")
        #expect(errors["password"] == [.tooShort, .tooCommon])
        #expect(!errors.isEmpty)

        var other = FieldErrors()
        other.add(.tooSimilar, to: "password")
        other.add(.tooCommon, to: "password")
        other.add(.taken, to: "username")
        errors.merge(other)
        #expect(errors.byField == ["password": [.tooShort, .tooCommon, .tooSimilar], "username": [.taken]])

        var none = FieldErrors()
        none.add(contentsOf: [], to: "email")
        #expect(none.isEmpty)
    }
}
