import Foundation
import Synchronization

/// A loopback TCP server that accepts connections and never says a word (an SMTP server stuck
/// before its greeting), until ``stop()`` hangs up on everyone and stops listening.
public final class SilentServer: Sendable {
    /// `smtp://127.0.0.1:<port>`: the scheme is for mail tests; any TCP client may connect.
    public let url: URL
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])
    private let acceptedCount = Atomic(0)

    public init() throws {
        let (descriptor, port) = try boundLoopbackSocket()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw TestFailure("cannot listen on loopback")
        }
        listener = descriptor
        url = URL(string: "smtp://127.0.0.1:\(port)")!
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
    public var accepted: Int { acceptedCount.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and closes every connection taken.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) { close(connection) }
    }
}
