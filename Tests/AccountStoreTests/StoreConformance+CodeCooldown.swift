import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func codeCooldown(_ store: any AccountStore) async throws {
        let first = Fixture.code("mina@example.com", seed: 1)
        #expect(try await store.write { try $0.upsertCode(first, ifCreatedBefore: Fixture.time(-60)) }, "no code yet")
        let young = aged(Fixture.code("mina@example.com", seed: 2), 30)
        #expect(try await store.write { try $0.upsertCode(young, ifCreatedBefore: Fixture.time(-30)) } == false)
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup") } == first, "unchanged")
        let later = aged(Fixture.code("mina@example.com", seed: 3), 60)
        #expect(try await store.write { try $0.upsertCode(later, ifCreatedBefore: Fixture.time(0)) })
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup") } == later)
        #expect(try await store.write { try $0.upsertCode(Fixture.code("mina@example.com", purpose: "verify"), ifCreatedBefore: Fixture.time(-60)) },
                "purposes count apart")
    }

    private static func aged(_ code: CodeRecord, _ seconds: Int) -> CodeRecord {
        var code = code
        code.createdAt = Fixture.time(seconds)
        return code
    }

    static func codeCooldownRace(_ store: any AccountStore) async throws {
        let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
            for seed in 0..<40 {
                group.addTask {
                    try await store.write { try $0.upsertCode(Fixture.code("race@example.com", seed: UInt8(seed)), ifCreatedBefore: Fixture.time(-60)) }
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(stored == 1)
    }
}
