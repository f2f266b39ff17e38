import Testing
@Test func placeholderAccountStoreTests() { #expect(Bool(true)) }
