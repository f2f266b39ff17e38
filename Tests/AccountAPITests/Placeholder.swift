import Testing
@Test func placeholderAccountAPITests() { #expect(Bool(true)) }
