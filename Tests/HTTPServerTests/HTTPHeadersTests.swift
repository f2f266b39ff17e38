import HTTPServer
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndReturnsFirstValue() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add("X-Dup", "1")
        headers.add("x-dup", "2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["X-DUP"] == "1")
        #expect(headers.values("x-Dup") == ["1", "2"])
        #expect(headers["Missing"] == nil)
    }

    @Test func setReplacesEveryLineOfThatNameAndKeepsOthersInOrder() {
        var headers: HTTPHeaders = ["A": "1", "B": "2"]
        headers.add("a", "3")
        headers.set("A", "9")
        #expect(headers.map(\.name) == ["B", "A"])
        #expect(headers.values("a") == ["9"])
    }
}
