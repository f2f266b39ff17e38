/// One client connection: its socket, what has been read of it, what is left to write, and its
/// ``ConnectionStateMachine``. Owned by one event loop and only ever touched on that loop's thread.
final class Connection {
    let fd: Int32
    let slot: Int
    let generation: UInt32
    let peer: PeerAddress
    /// The peer as text, made once per connection.
    let remoteAddress: String
    /// The connection's rules: what to do with what was read and when to close.
    var machine: ConnectionStateMachine

    /// The socket may have bytes we have not read (set by events, cleared when a read drains it).
    var readable = false
    /// The kernel reported a hang-up: read until the end is seen, even after a short read.
    var hangUpSeen = false

    var output: [UInt8] = []
    var written = 0
    /// The request was counted in the server's in-flight requests and leaves them once answered.
    var registered = false

    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private static let initialCapacity = 4096

    /// Waiting in its loop's list of replies to send after the current events.
    var awaitingFlush = false

    init(fd: Int32, slot: Int, generation: UInt32, peer: PeerAddress, limits: ConnectionStateMachine.Limits, now: UInt64) {
        self.fd = fd
        self.slot = slot
        self.generation = generation
        self.peer = peer
        remoteAddress = peer.text
        machine = ConnectionStateMachine(limits: limits, now: now)
        capacity = Self.initialCapacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes read and not yet consumed.
    var buffered: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + start, count: end - start) }

    var bufferedCount: Int { end - start }

    /// Drops the first `count` buffered bytes (a request that was handed on).
    func consume(_ count: Int) {
        start += count
        if start == end {
            start = 0
            end = 0
            if capacity > 4 * Self.initialCapacity {
                storage.deallocate()
                capacity = Self.initialCapacity
                storage = .allocate(capacity: capacity)
            }
        }
    }

    /// Reads what the socket has, keeping at most `limit` buffered bytes: the byte count, 0 at the
    /// end of the stream, -1 when nothing more is there now, -2 when the connection failed.
    func receive(limit: Int) -> Int {
        guard makeRoom(upTo: limit) else { return -2 }  // never with the limits the loop passes
        let room = min(capacity, start + limit) - end
        let count = Socket.receive(fd, storage + end, room)
        if count > 0 {
            end += count
            // A short read emptied the socket; with edge-triggered events a later arrival signals
            // again. After a hang-up no further event comes, so the end must be read to be seen.
            if count < room, !hangUpSeen { readable = false }
        } else if count == 0 {
            readable = false
        } else if count == -1 {
            readable = false
        }
        return count
    }

    /// Reads and drops what the socket has (while lingering), a bounded amount per call so a
    /// client streaming fast cannot hold the loop; false once the client closed or the socket failed.
    func discardInput() -> Bool {
        start = 0
        end = 0
        for _ in 0..<32 {
            let count = Socket.receive(fd, storage, capacity)
            if count == -1 {
                readable = false
                return true
            }
            if count <= 0 { return false }
        }
        return true  // more may be there: the next event, or the linger deadline, comes back to it
    }

    /// How a ``flush()`` ended.
    enum Flushed {
        /// All of `output` went.
        case done
        /// The socket is full; an event will say when there is room.
        case blocked
        /// The connection is gone.
        case failed
    }

    /// Sends what is left of `output`.
    func flush() -> Flushed {
        while written < output.count {
            let count = output.withUnsafeBytes { Socket.send(fd, $0.baseAddress! + written, $0.count - written) }
            if count == -1 { return .blocked }
            if count < 0 { return .failed }
            written += count
        }
        output.removeAll(keepingCapacity: output.capacity <= 65536)
        written = 0
        return .done
    }

    /// Makes room to read until `limit` bytes are buffered: compacts, then grows. False when the
    /// buffer already holds `limit` bytes.
    private func makeRoom(upTo limit: Int) -> Bool {
        let count = end - start
        guard count < limit else { return false }
        if end == capacity || start + limit > capacity {
            let needed = min(limit, max(count * 2, Self.initialCapacity))
            if needed > capacity {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: needed)
                grown.update(from: storage + start, count: count)
                storage.deallocate()
                storage = grown
                capacity = needed
            } else if start > 0 {
                UnsafeMutableRawPointer(storage).copyMemory(from: storage + start, byteCount: count)  // memmove
            }
            start = 0
            end = count
        }
        return end < capacity
    }
}
