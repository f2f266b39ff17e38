import Testing
@Test func placeholderAccountServerTests() { #expect(Bool(true)) }
