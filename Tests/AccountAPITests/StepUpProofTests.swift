import AccountAPI
import Foundation
import Testing

/// The step-up proof is one type whose members sit at the top level of every request that
/// carries it, beside the request's own; it prints without its secrets.
@Suite struct StepUpProofTests {
    func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try AccountJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try AccountJSON.makeDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func theProofsMembersSitBesideTheRequestsOwn() throws {
        let change = ChangePasswordRequest(currentPassword: "old pass", newPassword: "new pass", code: "123456")
        #expect(try json(change) == #"{"code":"123456","current_password":"old pass","new_password":"new pass"}"#)
        let read = try decode(ChangePasswordRequest.self, #"{"current_password":"old pass","new_password":"new pass","recovery_code":"abcde-fghij"}"#)
        #expect(read.currentPassword == "old pass" && read.newPassword == "new pass" && read.proof.recoveryCode == "abcde-fghij")
        #expect(read.proof.password == "old pass", "current_password is the proof's password")

        let link = AppleLinkRequest(identityToken: "tok", nonce: "n", proof: StepUpProof(password: "pw", code: "654321"))
        #expect(try json(link) == #"{"code":"654321","identity_token":"tok","nonce":"n","password":"pw"}"#)
        #expect(try decode(AppleLinkRequest.self, try json(link)) == link)

        let deletion = try decode(DeleteAccountRequest.self, #"{"password":"pw","code":"000111"}"#)
        #expect(deletion == StepUpProof(password: "pw", code: "000111"))
        #expect(try decode(StepUpProof.self, "{}").isEmpty)
    }

    @Test func itPrintsWithoutItsSecrets() {
        let proof = StepUpProof(password: "hunter2 secret", code: "987654")
        for text in [String(describing: proof), String(reflecting: proof)] {
            #expect(!text.contains("hunter2") && !text.contains("987654"), "\(text)")
        }
        let change = ChangePasswordRequest(currentPassword: "old secret", newPassword: "new secret")
        #expect(!String(describing: change).contains("secret"))
    }
}
