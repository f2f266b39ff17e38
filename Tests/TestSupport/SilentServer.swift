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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SilentServerFailure("socket failed") }
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
            throw SilentServerFailure("cannot listen on loopback")
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
    public var accepted: Int { acceptedCount.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and closes every connection taken.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) { close(connection) }
    }
}

/// The loopback socket could not be set up.
public struct SilentServerFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
