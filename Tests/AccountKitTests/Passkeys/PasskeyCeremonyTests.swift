import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// The conversions every passkey authorizer shares: options' base64url into bytes, a platform's
/// bytes into the JSON forms; names; what the system's errors mean.
@Suite struct PasskeyCeremonyTests {
    static let options = PasskeyCreationOptions(
        rp: PasskeyRelyingParty(id: "example.com", name: "MBTI Playground"),
        user: PasskeyUserEntity(id: Base64URL.encode([UInt8](repeating: 7, count: 16)), name: "minsu@example.com", displayName: "민수"),
        challenge: Base64URL.encode([UInt8](0..<32)), pubKeyCredParams: [PasskeyCredentialParameters(alg: -7)], timeout: 300_000,
        excludeCredentials: [PasskeyCredentialDescriptor(id: Base64URL.encode([1, 2, 3]), transports: nil)])

    @Test func creationOptionsDecodeIntoBytes() throws {
        let ceremony = try Self.options.ceremony()
        #expect(ceremony.relyingPartyID == "example.com" && ceremony.userName == "minsu@example.com")
        #expect(ceremony.challenge == Data(0..<32) && ceremony.userID == Data(repeating: 7, count: 16))
        #expect(ceremony.excludedCredentialIDs == [Data([1, 2, 3])])
        let request = PasskeyRequestOptions(challenge: "AAEC", timeout: 300_000, rpId: "example.com")
        #expect(try request.ceremony() == PasskeyAssertionCeremony(relyingPartyID: "example.com", challenge: Data([0, 1, 2]), allowedCredentialIDs: []))
    }

    @Test func optionsThatAreNotBase64urlAreAnUnreadableReply() {
        let bad = PasskeyRequestOptions(challenge: "not base64url!", timeout: 300_000, rpId: "example.com")
        #expect(throws: AccountError.undecodableReply(status: 200)) { try bad.ceremony() }
        let padded = PasskeyRequestOptions(challenge: "AAEC==", timeout: 300_000, rpId: "example.com")
        #expect(throws: AccountError.undecodableReply(status: 200)) { try padded.ceremony() }
    }

    @Test func platformBytesBecomeTheJSONForms() throws {
        let made = PasskeyRegistrationCredential(
            credentialID: Data([0xfb, 0xff]), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xa0]), transports: ["internal"])
        #expect(made.id == "-_8" && made.rawId == "-_8" && made.type == "public-key")
        #expect(made.response.clientDataJSON == "e30" && made.response.attestationObject == "oA")
        let signed = PasskeyAssertionCredential(
            credentialID: Data([1]), clientDataJSON: Data([2]), authenticatorData: Data([3]), signature: Data([4]), userHandle: nil)
        #expect(signed.response.userHandle == nil && signed.response.signature == "BA")
        let json = try #require(String(data: try AccountJSON.makeEncoder().encode(signed), encoding: .utf8))
        #expect(json.contains(#""rawId":"AQ""#) && json.contains(#""authenticatorData":"Aw""#))
    }

    @Test func passkeyNames() {
        #expect(PasskeyName.validate(" iPhone ").isEmpty)
        #expect(PasskeyName.validate(" \n") == [.required])
        #expect(PasskeyName.validate(String(repeating: "👍🏽", count: 64)).isEmpty, "64 characters as people count them")
        #expect(PasskeyName.validate(String(repeating: "a", count: 65)) == [.tooLong])
        #expect(PasskeyName.validate("i\u{0007}Phone") == [.invalidFormat])
        #expect(PasskeyName.suggestion(model: "iPhone15,2", system: "iOS") == "iPhone")
        #expect(PasskeyName.suggestion(model: "iPad13,1", system: "iOS") == "iPad")
        #expect(PasskeyName.suggestion(model: "MacBookPro18,3", system: "macOS") == "Mac")
        #expect(PasskeyName.suggestion(model: "arm64", system: "macOS") == "Mac")
        #expect(PasskeyName.suggestion(model: "x86_64", system: "Linux") == "Linux")
    }

    @Test func theSystemsErrorsByCode() {
        let domain = AuthorizationError.platformDomain
        #expect(AuthorizationError(NSError(domain: domain, code: 1001)) == .cancelled)
        #expect(AuthorizationError(CancellationError()) == .cancelled)
        #expect(AuthorizationError(NSError(domain: domain, code: 1005)) == .noCredential)
        #expect(AuthorizationError(AuthorizationError.incompleteResponse("x")) == .incompleteResponse("x"))
        let other = AuthorizationError(NSError(domain: domain, code: 1000, userInfo: [NSLocalizedDescriptionKey: "unknown"]))
        #expect(other == .failed(code: 1000, message: "unknown"))
        #expect(!other.isCancellation)
        // A cancel code of another domain is no cancellation.
        #expect(AuthorizationError(NSError(domain: "Other", code: 1001)) != .cancelled)
    }

    @Test func proofsPrintWithoutTheirSecrets() {
        let proof = AccountProof.password("correct horse battery", code: "123456")
        #expect(!String(describing: proof).contains("correct horse") && !String(reflecting: proof).contains("123456"))
        #expect(StepUpProof(proof) == StepUpProof(password: "correct horse battery", code: "123456"))
        let recovery = AccountProof.password("pw", recoveryCode: "abcde-12345")
        #expect(StepUpProof(recovery) == StepUpProof(password: "pw", recoveryCode: "abcde-12345"))
    }
}
