import AccountAPI
import Testing

/// A type prints as the wire writes it.
@Suite struct MBTIDescriptionTests {
    @Test func aTypePrintsInUpperCaseAsOnTheWire() {
        #expect(String(describing: MBTI.intj) == "INTJ")
        #expect("\(MBTI.enfp)" == "ENFP")
        for type in MBTI.allCases { #expect(type.description == type.rawValue) }
    }
}
