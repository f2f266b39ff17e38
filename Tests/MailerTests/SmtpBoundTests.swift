import Foundation
import Synchronization
import Testing
@testable import Mailer

/// SMTPMailTransport's bound: a few conversations at once, a few more messages waiting, and a
/// clear refusal past that, against a real socket that takes connections and never answers.
@Suite struct SmtpBoundTests {
    let message = MailMessage(to: "a@b.example", subject: "bound", text: "code 123456")

    @Test("past the bound a send is refused at once with busy, connecting to nothing; what was taken is answered")
    func aSendPastTheBoundIsRefusedAtOnce() async throws {
        let server = try SilentServer()
        let transport = try SMTPMailTransport(
            url: server.url, sender: "no-reply@mbti.example", username: nil, password: nil, timeout: 30,
            now: { Date() }, conversations: 1, waitingLimit: 1)
        let message = message

        let talking = Task { try await transport.send(message) }
        try await eventually("the first send is in its conversation") { server.accepted == 1 }
        let waiting = Task { try await transport.send(message) }
        try await eventually("the second send waits") { transport.workers.queueLength == 1 }

        await #expect {
            try await transport.send(message)
        } throws: { error in
            guard case MailError.busy(let reason) = error else { return false }
            return reason.contains(server.url.host ?? "?") && reason.contains("1 messages already wait")
        }
        // Refused without waiting for the conversation ahead of it, which still hangs.
        #expect(server.accepted == 1)
        #expect(transport.workers.queueLength == 1)

        // The server hangs up: the first send fails, then the waiting one runs and fails too
        // (nothing listens any more). Each caller hears about its own message.
        server.stop()
        for task in [talking, waiting] {
            await #expect {
                try await task.value
            } throws: { error in
                if case MailError.deliveryFailed = error { true } else { false }
            }
        }
        #expect(transport.workers.queueLength == 0)
    }

    @Test func theBoundOfAServerTransport() throws {
        let transport = try SMTPMailTransport(url: URL(string: "smtp://127.0.0.1:2525")!, sender: "no-reply@mbti.example")
        #expect(transport.workers.threadCount == SMTPMailTransport.conversations)
        #expect(transport.workers.queueLimit == SMTPMailTransport.waitingLimit)
    }
}

/// A loopback TCP server that accepts connections and never says a word (an SMTP server stuck
/// before its greeting), until ``stop()`` hangs up on everyone and stops listening.
final class SilentServer: Sendable {
    let url: URL
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])
    private let acceptedCount = Atomic(0)

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SinkFailure("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        } && listen(descriptor, 16) == 0
        guard listening else {
            close(descriptor)
            throw SinkFailure("cannot listen on loopback")
        }
        listener = descriptor
        url = URL(string: "smtp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread { [self] in acceptUntilStopped() }.start()
    }

    private func acceptUntilStopped() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }  // shut down by stop()
            connections.withLock { $0.append(connection) }
            acceptedCount.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Connections taken so far.
    var accepted: Int { acceptedCount.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and closes every connection taken.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) { close(connection) }
    }
}

/// Waits, without blocking a thread, until `condition` holds; gives up after 10 s.
private func eventually(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw SinkFailure("never: \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}
