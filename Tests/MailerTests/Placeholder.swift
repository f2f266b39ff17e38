import Testing
@Test func placeholderMailerTests() { #expect(Bool(true)) }
