import Foundation
import Synchronization
import Testing

/// The one clock tests move by hand, so expiries, cooldowns and back-offs pass without sleeping.
///
/// It stands still at `start` until ``advance(_:)`` moves it. An in-process app reads it through
/// its server clock (`InProcessServer`), a model through ``function``; a server binary reads the
/// same offset from ``file`` (`--clock-file`, ``serverArguments``), so one clock can move a
/// server process and the SDK models beside it together.
public final class TestClock: Sendable {
    private let start: Date
    private let offset = Mutex<TimeInterval>(0)
    /// The file a server binary reads the offset from (seconds ahead of its real time), if any.
    public let file: URL?
    /// Why this clock cannot be moved (a server binary started without a clock file), if so.
    private let fixedBecause: String?

    /// A clock at `start` (a fixed moment by default, so runs are alike).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.start = start
        file = nil
        fixedBecause = nil
    }

    /// A clock at the real time now, to the whole second: the stores keep times to the
    /// millisecond, so a clock that stands still between two would read a stored time back a
    /// moment off (a 60 s cooldown a fraction over 60 s).
    public static func atNow() -> TestClock {
        TestClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// A clock at the real time now (to the whole second, as ``atNow()``) that also writes its
    /// offset to `file` for a server binary (`--clock-file`); the file says 0 until the clock moves.
    public init(file: URL) throws {
        start = Self.atNow().start
        self.file = file
        fixedBecause = nil
        try "0".write(to: file, atomically: true, encoding: .utf8)
    }

    /// The real time, which cannot be moved: the clock of a server binary started without a clock
    /// file. Moving it records an issue naming `reason`, since the server would not follow.
    public init(fixedBecause reason: String) {
        start = Self.atNow().start
        file = nil
        fixedBecause = reason
    }

    /// A clock for the servers of `folder`, in its file `clock` (see ``init(file:)``).
    public convenience init(in folder: TemporaryFolder) throws {
        try self.init(file: folder.url.appendingPathComponent("clock"))
    }

    /// The clock's time.
    public var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }

    /// The time a server binary reading ``file`` sees now: the real time, moved by the offset.
    public var serverNow: Date { Date().addingTimeInterval(secondsAhead) }

    /// Whether the clock stands still between moves (an app in this process reads ``now``), rather
    /// than running on with the real time as a server binary's does (``serverNow``).
    public var standsStill: Bool { file == nil && fixedBecause == nil }

    /// How far the clock has been moved, in seconds.
    public var secondsAhead: TimeInterval { offset.withLock { $0 } }

    /// `now` as a function, for the models' `now:` parameters.
    public var function: @Sendable () -> Date { { [self] in now } }

    /// `--clock-file PATH` for a server binary that shares this clock.
    public var serverArguments: [String] { file.map { ["--clock-file", $0.path] } ?? [] }

    /// Moves the clock `seconds` ahead (and the file's offset with it).
    public func advance(_ seconds: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) {
        if let fixedBecause {
            Issue.record("cannot move the clock: \(fixedBecause)", sourceLocation: sourceLocation)
            return
        }
        let ahead = offset.withLock { value in
            value += seconds
            return value
        }
        write(ahead, sourceLocation: sourceLocation)
    }

    /// Moves the clock to `seconds` after where it started.
    public func set(ahead seconds: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) {
        if let fixedBecause {
            Issue.record("cannot move the clock: \(fixedBecause)", sourceLocation: sourceLocation)
            return
        }
        offset.withLock { $0 = seconds }
        write(seconds, sourceLocation: sourceLocation)
    }

    private func write(_ ahead: TimeInterval, sourceLocation: SourceLocation) {
        guard let file else { return }
        do {
            // Whole seconds when whole, as a person would write them.
            let text = ahead == ahead.rounded() ? String(Int(ahead)) : String(ahead)
            try text.write(to: file, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("cannot move the server's clock file \(file.path): \(error)", sourceLocation: sourceLocation)
        }
    }
}
