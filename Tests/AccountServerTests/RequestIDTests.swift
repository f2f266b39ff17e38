import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("Generated request ids")
struct RequestIDTests {
    @Test("UUID-shaped version 4 ids, all different, also across threads")
    func uniqueVersion4() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<5000).map { _ in RequestIDs.next() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 20_000)
        for id in ids.prefix(100) {
            let uuid = UUID(uuidString: id)
            #expect(uuid?.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
        }
    }

    @Test("a request without a sane X-Request-Id gets a generated one")
    func generatedWhenAbsentOrOdd() {
        #expect(Pipeline.requestID(from: "abc-123") == "abc-123")
        for header in [nil, "", "has space", String(repeating: "a", count: 129)] {
            #expect(UUID(uuidString: Pipeline.requestID(from: header)) != nil)
        }
    }
}
