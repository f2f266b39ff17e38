import Testing
@Test func placeholderSodiumTests() { #expect(Bool(true)) }
