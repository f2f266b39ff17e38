import Foundation
import Synchronization
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("The log sink: a bounded buffer written by a thread of its own")
struct LogSinkTests {
    @Test("lines reach the descriptor in order with no drain asked, and none is dropped")
    func linesFlowInOrder() throws {
        let pipe = try LogPipe()
        let reader = PipeReader(pipe.read)
        let sink = LogSink(fileDescriptor: pipe.write)
        var expected: [UInt8] = []
        for index in 0..<3000 {
            let line = Array("{\"n\":\"\(index)\",\"pad\":\"\(String(repeating: "x", count: index % 97))\"}\n".utf8)
            expected += line
            #expect(line.withUnsafeBytes { sink.append($0, index % 3 == 0 ? .event : .access) })
        }
        // The writer writes on its own (by size and by its interval): no drain before the bytes arrive.
        #expect(reader.waitFor { $0.count >= expected.count }, "\(reader.bytes.count) of \(expected.count) bytes")
        #expect(sink.close())
        pipe.closeWrite()
        #expect(reader.waitForEnd())
        #expect(reader.bytes == expected)
        #expect(sink.counts == LogSink.Counts())
    }

    @Test("a pipe nobody reads: appends never wait, access lines are shed before events, drops are counted and reported once it reads again")
    func stalledPipe() throws {
        let pipe = try LogPipe()
        let prefilled = pipe.fillUntilFull()
        let sink = LogSink(fileDescriptor: pipe.write, capacity: 8192)
        #expect(sink.reserve == 2048)
        func line(_ kind: String, _ index: Int) -> [UInt8] {
            let text = "{\"kind\":\"\(kind)\",\"n\":\"\(String(index).leftPadded(to: 4))\"}"
            return Array((text + String(repeating: " ", count: 99 - text.utf8.count) + "\n").utf8)  // 100 bytes
        }
        // Access lines are taken while the reserve stays free: (8192 - 2048) / 100 of them.
        var accessTaken = 0
        while accessTaken < 1000, line("access", accessTaken).withUnsafeBytes({ sink.append($0, .access) }) { accessTaken += 1 }
        #expect(accessTaken == 61)
        #expect(sink.counts == LogSink.Counts(dropped: 1, eventsDropped: 0))
        // Events still fit in the reserve, until even it is full.
        let events = (0..<21).map { line("event", $0).withUnsafeBytes { sink.append($0, .event) } }
        #expect(events == Array(repeating: true, count: 20) + [false])
        for index in 0..<5 { #expect(!line("late", index).withUnsafeBytes { sink.append($0, .access) }) }
        #expect(sink.counts == LogSink.Counts(dropped: 7, eventsDropped: 1))

        // The reader comes back: everything taken is written, then one warning with the drops.
        let reader = PipeReader(pipe.read)
        #expect(sink.drain())
        #expect(reader.waitFor { String(decoding: $0, as: UTF8.self).contains("log_lines_dropped") })
        #expect(sink.close())
        pipe.closeWrite()
        #expect(reader.waitForEnd())
        let lines = String(decoding: reader.bytes.dropFirst(prefilled), as: UTF8.self).split(separator: "\n")
        let expected = (0..<61).map { line("access", $0) } + (0..<20).map { line("event", $0) }
        #expect(lines.dropLast().map { Array($0.utf8) + [0x0A] } == expected)
        let last = try #require(lines.last)
        let warning = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String])
        #expect(warning["event"] == "log_lines_dropped" && warning["level"] == "warning")
        #expect(warning["dropped"] == "7" && warning["events_dropped"] == "1", "\(warning)")
    }

    @Test("on a regular file a drain writes everything taken")
    func regularFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-sink-\(UUID().uuidString)")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        let sink = LogSink(fileDescriptor: descriptor)
        var expected = ""
        for index in 0..<500 {
            let text = "{\"n\":\"\(index)\"}\n"
            expected += text
            Array(text.utf8).withUnsafeBytes { _ = sink.append($0, .access) }
        }
        #expect(sink.drain())
        #expect(try String(contentsOf: url, encoding: .utf8) == expected)
        #expect(sink.close())
    }

    @Test("a log line: time and event first, every value a JSON string, escaped")
    func logLine() throws {
        let time = Date(timeIntervalSince1970: 1_790_000_000.75)
        var line = LogLine(event: "login_failed", time: time)
        line.field("client", "203.0.113.7")
        line.field("status", digitsOf: 401)
        line.field("odd", "quote \" backslash \\ newline \n tab \t bell \u{7} slash / é")
        line.fields(["via": "email_verify", "negative": String(-3)])
        line.field("duration_ms", milliseconds: .microseconds(1_234_567))
        let bytes = line.bytes()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"time":"2026-09-21T14:13:20Z","event":"login_failed","client":"203.0.113.7""#), "\(text)")
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(object == [
            "time": "2026-09-21T14:13:20Z", "event": "login_failed", "client": "203.0.113.7", "status": "401",
            "odd": "quote \" backslash \\ newline \n tab \t bell \u{7} slash / é", "via": "email_verify", "negative": "-3",
            "duration_ms": "1234.57",
        ])
    }

    @Test("durations are written in milliseconds with two decimals, as %.2f writes them", arguments: [
        Duration.zero, .nanoseconds(4_999), .nanoseconds(5_001), .microseconds(420), .microseconds(999_996),
        .milliseconds(12), .seconds(3) + .nanoseconds(1_006_000), .seconds(86_400),
    ])
    func milliseconds(_ duration: Duration) throws {
        var line = LogLine(event: "request")
        line.field("duration_ms", milliseconds: duration)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.bytes())) as? [String: String])
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        #expect(object["duration_ms"] == String(format: "%.2f", value))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// A pipe for a sink to write to; the test closes the write end when the sink is done.
private final class LogPipe {
    let read: Int32
    let write: Int32
    private var writeOpen = true

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        (read, write) = (ends[0], ends[1])
    }

    /// Writes filler bytes until the pipe takes no more (as a reader that stopped reading leaves
    /// it); returns how many.
    func fillUntilFull() -> Int {
        let flags = fcntl(write, F_GETFL)
        _ = fcntl(write, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(write, F_SETFL, flags) }
        let filler = [UInt8](repeating: 0x23, count: 4096)
        var total = 0
        for size in [4096, 1] {
            while true {
                let written = filler.withUnsafeBytes { Glibc.write(write, $0.baseAddress, size) }
                guard written > 0 else { break }
                total += written
            }
        }
        return total
    }

    func closeWrite() {
        if writeOpen { close(write) }
        writeOpen = false
    }

    deinit {
        closeWrite()
        close(read)
    }
}

/// Reads a descriptor to its end on a thread of its own.
private final class PipeReader: Sendable {
    private let state = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))

    init(_ descriptor: Int32) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { $0.bytes += chunk[..<count] }
            }
            state.withLock { $0.ended = true }
        }.start()
    }

    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// Waits (at most 30 s, a bound for a stuck test, not a timing claim) until `condition` holds.
    func waitFor(_ condition: ([UInt8]) -> Bool) -> Bool {
        for _ in 0..<3000 {
            if state.withLock({ condition($0.bytes) }) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits (at most 30 s) for the end of the stream.
    func waitForEnd() -> Bool {
        for _ in 0..<3000 {
            if state.withLock({ $0.ended }) { return true }
            usleep(10_000)
        }
        return false
    }
}
