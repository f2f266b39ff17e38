import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// `FormRules`: the shared rules, with the server's policy limits where they differ.
@Suite struct PolicyRulesFormTests {
    static func policy(usernameMin: Int = 2, usernameMax: Int = 20, passwordMin: Int = 8, refusesCommon: Bool = true, cooldown: Int = 60) -> Policy {
        Policy(
            username: .init(minLength: usernameMin, maxLength: usernameMax, allowedSymbols: ["_", "."]),
            email: .init(maxLength: 254),
            password: .init(minLength: passwordMin, maxLength: 128, refusesCommon: refusesCommon, refusesSimilar: true),
            mbtiTypes: [.enfp, .intj], code: .init(length: 6, lifetime: 600, resendCooldown: cooldown, maxAttempts: 5),
            emailVerificationRequired: true, accessTokenLifetime: 900, sessionIdleLifetime: 2_592_000,
            sessionMaxLifetime: 7_776_000)
    }

    @Test func builtInRulesMatchAccountAPI() {
        let rules = FormRules()
        for name in ["", "a", "ab", "12345", "admin", "민수", String(repeating: "가", count: 21), "bad name"] {
            #expect(rules.username(name) == UsernameRule.validate(name), "\(name)")
        }
        for address in ["", "a@b", "a@b.c", "no at"] {
            #expect(rules.email(address) == EmailRule.validate(address), "\(address)")
        }
        for password in ["", "short", "password", "minsu1234", "correct horse battery"] {
            #expect(rules.password(password, username: "minsu", email: "x@y.z") == PasswordRule.validate(password, username: "minsu", email: "x@y.z"))
        }
        #expect(rules.mbtiTypes == MBTI.allCases)
        #expect(rules.resendCooldown == 60)
    }

    @Test func policyLimitsReplaceTheBuiltInOnes() {
        let rules = FormRules(policy: Self.policy(usernameMin: 3, usernameMax: 5, passwordMin: 10))
        #expect(rules.username("ab") == [.tooShort])
        #expect(rules.username("abcdef") == [.tooLong])
        #expect(rules.username("abc") == [])
        #expect(rules.password("nine-char", username: nil, email: nil) == [.tooShort])
        #expect(rules.mbti(.istj) == [.invalidChoice])
        #expect(rules.mbti(.intj) == [])
        #expect(rules.mbti(nil) == [.required])
    }

    @Test func aLooserPolicyLetsThroughWhatTheBuiltInRuleRefuses() {
        let rules = FormRules(policy: Self.policy(usernameMin: 1, passwordMin: 6))
        #expect(rules.username("a") == [])
        #expect(rules.password("abcxyz", username: nil, email: nil) == [])
        #expect(rules.password("password", username: nil, email: nil) == [.tooCommon], "the common list still applies")
    }

    @Test func commonPasswordsPassWhenThePolicyAllowsThem() {
        let rules = FormRules(policy: Self.policy(refusesCommon: false))
        #expect(rules.password("password", username: nil, email: nil) == [])
    }

    @Test func lengthMessagesNameThePolicysNumbers() {
        let rules = FormRules(policy: Self.policy(usernameMin: 3, passwordMin: 10))
        #expect(rules.message(.tooShort, field: "username", .en) == "Use at least 3 characters.")
        #expect(rules.message(.tooShort, field: "username", .ko) == "닉네임은 3자 이상이어야 해요.")
        #expect(rules.message(.tooShort, field: "password", .ko) == "비밀번호는 10자 이상이어야 해요.")
        #expect(rules.message(.tooLong, field: "username", .en) == Messages.field(.tooLong, field: "username", .en), "unchanged limits keep the shared text")
        #expect(rules.message(.mismatch, field: "password_confirmation", .en) == "The passwords do not match.")
    }

    @Test func codesMustBeSixDigits() {
        let rules = FormRules()
        #expect(rules.code("") == [.required])
        #expect(rules.code("12345") == [.invalidFormat])
        #expect(rules.code("12345a") == [.invalidFormat])
        #expect(rules.code("１２３４５６") == [.invalidFormat], "full-width digits are not code digits")
        #expect(rules.code(" 123456 ") == [])
    }
}
