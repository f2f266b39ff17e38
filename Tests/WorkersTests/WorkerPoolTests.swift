import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Workers

/// WorkerPool on real threads: where work runs, the bound, no lost work, stopping.
@Suite struct WorkerPoolTests {
    @Test func workRunsOnThePoolsThreadsWithTheirOwnResource() async throws {
        let log = ProbeLog()
        let pool = WorkerPool(name: "probe", resources: (0..<3).map { Probe($0, log: log) }, queueLimit: 1000)
        #expect(pool.threadCount == 3)

        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<300 {
                group.addTask {
                    try await pool.run { probe in
                        probe.use()
                        return probe.id
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(ids.count == 300)
        #expect(Set(ids).isSubset(of: [0, 1, 2]))
        // Each resource only ever on one thread, a thread of its own.
        for (_, threads) in log.threads { #expect(threads.count == 1) }
        #expect(Set(log.threads.values.flatMap { $0 }).count == log.threads.count)
        await pool.stopAndWait()
    }

    @Test func theLimitIsAtLeastOne() async throws {
        let pool = WorkerPool(name: "lonely", threads: 0, queueLimit: 0)
        #expect(pool.threadCount == 1)
        #expect(pool.queueLimit == 1)
        #expect(try await pool.run { _ in "taken" } == "taken")
        await pool.stopAndWait()
    }

    @Test func errorsOfTheWorkComeBackToTheCaller() async throws {
        let pool = WorkerPool(name: "errors", threads: 2, queueLimit: 8)
        await #expect(throws: GiveUp.self) {
            try await pool.run { _ in throw GiveUp(description: "from the work") }
        }
        // The thread survives a throwing job.
        #expect(try await pool.run { _ in 42 } == 42)
        await pool.stopAndWait()
    }

    @Test("the bound holds: with the threads busy and queueLimit jobs waiting, one more is refused at once and never runs")
    func theBoundHolds() async throws {
        let pool = WorkerPool(name: "bound", threads: 1, queueLimit: 3)
        let gate = Gate()
        let order = Recorder<Int>()
        let blocked = Task { try await pool.run { _ in gate.block() } }
        try await eventually("the gate job runs") { gate.started }

        var waiting: [Task<Int, any Error>] = []
        for index in 1...3 {
            waiting.append(Task {
                try await pool.run { _ in
                    order.append(index)
                    return index
                }
            })
            try await eventually("job \(index) waits") { pool.queueLength == index }
        }
        let overLimit = Tally()
        await #expect(throws: WorkerPoolError.full) {
            try await pool.run { _ in overLimit.add() }
        }
        #expect(pool.queueLength == 3)

        gate.open()
        try await blocked.value
        for (index, task) in waiting.enumerated() { #expect(try await task.value == index + 1) }
        #expect(order.all == [1, 2, 3])
        #expect(overLimit.value == 0)
        #expect(pool.queueLength == 0)
        // Room again: the pool takes work as before.
        #expect(try await pool.run { _ in "again" } == "again")
        await pool.stopAndWait()
    }

    @Test("no work is lost: of many callers at once, each gets its own result or a refusal, and what ran was answered")
    func noWorkIsLost() async throws {
        let pool = WorkerPool(name: "flood", threads: 2, queueLimit: 16)
        let runs = Tally()
        let outcomes = try await withThrowingTaskGroup(of: Result<Int, WorkerPoolError>.self) { group in
            for index in 0..<2000 {
                group.addTask {
                    do {
                        let echoed = try await pool.run { _ in
                            runs.add()
                            return index
                        }
                        #expect(echoed == index)
                        return .success(echoed)
                    } catch let refusal as WorkerPoolError {
                        return .failure(refusal)
                    }
                }
            }
            return try await group.reduce(into: [Result<Int, WorkerPoolError>]()) { $0.append($1) }
        }
        let answered = outcomes.compactMap { try? $0.get() }
        #expect(outcomes.count == 2000)
        #expect(Set(answered).count == answered.count)
        #expect(runs.value == answered.count)
        #expect(outcomes.allSatisfy { if case .failure(let refusal) = $0 { refusal == .full } else { true } })
        #expect(!answered.isEmpty)
        await pool.stopAndWait()
    }

    @Test func withRoomForEveryCallerNothingIsRefused() async throws {
        let pool = WorkerPool(name: "roomy", threads: 3, queueLimit: 5000)
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 1...5000 { group.addTask { try await pool.run { _ in index } } }
            return try await group.reduce(0, +)
        }
        #expect(sum == 5000 * 5001 / 2)
        await pool.stopAndWait()
    }

    @Test("stop refuses what waits, lets the running job finish, and refuses later work")
    func stopRefusesWaitingWork() async throws {
        let log = ProbeLog()
        let pool = WorkerPool(name: "stopping", resources: [Probe(7, log: log)], queueLimit: 10)
        let gate = Gate()
        let running = Task { try await pool.run { probe in gate.block(); return probe.id } }
        try await eventually("the gate job runs") { gate.started }
        let waiting = Task { try await pool.run { _ in "never" } }
        try await eventually("a job waits") { pool.queueLength == 1 }

        pool.stop()
        await #expect(throws: WorkerPoolError.stopped) { try await waiting.value }
        await #expect(throws: WorkerPoolError.stopped) { try await pool.run { _ in 1 } }
        #expect(log.released.isEmpty)  // its thread is still in the running job

        gate.open()
        #expect(try await running.value == 7)
        await pool.stopAndWait()
        #expect(log.released == [7])
        pool.stop()  // twice is fine
    }

    @Test func theOwnersRefusalIsWhatCallersSee() async throws {
        struct Busy: Error, Equatable { let why: WorkerPoolError }
        let pool = WorkerPool(name: "mapped", threads: 1, queueLimit: 1, refusal: { Busy(why: $0) })
        let gate = Gate()
        let blocked = Task { try await pool.run { _ in gate.block() } }
        try await eventually("the gate job runs") { gate.started }
        let waiting = Task { try await pool.run { _ in 2 } }
        try await eventually("a job waits") { pool.queueLength == 1 }
        await #expect(throws: Busy(why: .full)) { try await pool.run { _ in 1 } }
        gate.open()
        try await blocked.value
        #expect(try await waiting.value == 2)
        await pool.stopAndWait()
        await #expect(throws: Busy(why: .stopped)) { try await pool.run { _ in 1 } }
    }

    @Test func droppingThePoolEndsItsThreadsAndReleasesTheirResources() async throws {
        let log = ProbeLog()
        var pool: WorkerPool<Probe>? = WorkerPool(name: "dropped", resources: [Probe(1, log: log), Probe(2, log: log)], queueLimit: 4)
        #expect(try await pool?.run { $0.id } != nil)
        pool = nil
        try await eventually("both resources are released") { log.released == [1, 2] }
    }
    @Test func backgroundThreadsRunAtALowerPriorityAndOthersAsTheProcess() async throws {
        #if os(Linux)
        let background = WorkerPool(name: "hash", threads: 2, queueLimit: 4, background: true)
        let normal = WorkerPool(name: "plain", threads: 1, queueLimit: 4)
        let lowered = max(ThreadPriority.callingThreadNiceness() ?? 0, ThreadPriority.backgroundNiceness)
        for _ in 0..<4 {
            #expect(try await background.run { _ in ThreadPriority.callingThreadNiceness() } == lowered)
        }
        #expect(try await normal.run { _ in ThreadPriority.callingThreadNiceness() } == ThreadPriority.callingThreadNiceness())
        await background.stopAndWait()
        await normal.stopAndWait()
        #endif
    }
}
