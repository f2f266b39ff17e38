import AccountAPI
import Testing

@Suite("Problem.make")
struct ProblemMakeTests {
    @Test func validation_problem_carries_localized_field_messages() throws {
        var errors = FieldErrors()
        errors.add(.tooShort, to: "password")
        errors.add(.required, to: "mbti")
        let problem = Problem.make(.validationFailed, status: 422, language: .ko, errors: errors)
        #expect(problem.type == "about:blank")
        #expect(problem.status == 422)
        #expect(problem.code == .validationFailed)
        #expect(problem.title == "입력값을 확인해 주세요")
        #expect(problem.detail == Messages.detail(.validationFailed, .ko))
        #expect(problem.message == problem.detail)
        let fields = try #require(problem.errors)
        #expect(fields["password"] == [FieldError(code: .tooShort, message: Messages.field(.tooShort, field: "password", .ko))])
        #expect(fields["mbti"] == [FieldError(code: .required, message: "MBTI 유형을 선택해 주세요.")])
        #expect(fields.count == 2)
    }

    @Test func matches_the_sample_of_the_api_document() throws {
        var errors = FieldErrors()
        errors.add(.tooShort, to: "password")
        let problem = Problem.make(.validationFailed, status: 422, language: .en, errors: errors)
        let json = String(decoding: try AccountJSON.makeEncoder().encode(problem), as: UTF8.self)
        #expect(json == #"{"code":"validation_failed","detail":"Some fields are invalid.","errors":{"password":[{"code":"too_short","message":"Use at least 8 characters."}]},"message":"Some fields are invalid.","status":422,"title":"Validation failed","type":"about:blank"}"#)
    }

    @Test func detail_can_be_replaced_and_empty_errors_are_left_out() {
        let problem = Problem.make(.rateLimited, status: 429, language: .en, detail: "Try again in 30 seconds.", errors: FieldErrors())
        #expect(problem.detail == "Try again in 30 seconds.")
        #expect(problem.message == "Try again in 30 seconds.")
        #expect(problem.title == "Too many requests")
        #expect(problem.errors == nil)
        #expect(Problem.make(.notFound, status: 404, language: .en).errors == nil)
    }
}
