/// One client connection: its socket, what has been read of it and what is left to write.
/// Owned by one event loop and only ever touched on that loop's thread.
final class Connection {
    /// Where the connection is in its request/response cycle.
    enum Phase {
        /// Reading a request head (or idle between requests, or new).
        case head
        /// The head is parsed; reading `head.contentLength` bytes of body.
        case body
        /// The async handler has the request; nothing is read meanwhile.
        case handling
        /// Sending `output`.
        case writing
        /// The last reply is sent and the writing half is shut; reading whatever the client still
        /// sends until it closes, so its unread upload cannot turn into a reset that eats the reply.
        case lingering
    }

    let fd: Int32
    let slot: Int
    let generation: UInt32
    let peer: PeerAddress
    /// The peer as text, made once per connection.
    let remoteAddress: String
    var phase = Phase.head

    /// When the current phase's clock started (milliseconds, monotonic): for `.head`, the first
    /// byte of the request or the accept of a new connection, or the end of the last reply while
    /// ``idle``; for `.body`, the end of the head; for `.writing` and `.lingering`, their start.
    var phaseStart: UInt64
    /// In `.head` between two requests with nothing of the next one read yet: the idle timeout
    /// applies rather than the header timeout.
    var idle = false
    /// At least one reply went out on this connection (it is no longer new).
    var hasServed = false

    /// The socket may have bytes we have not read (set by events, cleared when a read drains it).
    var readable = false
    /// The client closed its writing half (or the socket failed).
    var peerClosed = false
    /// The kernel reported a hang-up: read until the end is seen, even after a short read.
    var hangUpSeen = false
    var scanner = HeadScanner()
    var fields: [FieldRange] = []
    var head = RequestHead()
    var headLength = 0
    /// The decoded path and query of the request being read.
    var target: RequestTarget?
    /// What the reply to the current request needs to know about it.
    var keepAlive = true
    var isHeadRequest = false
    /// The bytes in ``output`` are a `100 Continue`: after them comes the body, not the next request.
    var continueToBody = false

    var output: [UInt8] = []
    var written = 0
    var closeAfterWrite = false
    /// The request was counted in the server's in-flight requests and leaves them once answered.
    var registered = false

    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private static let initialCapacity = 4096

    /// Waiting in its loop's list of replies to send after the current events.
    var awaitingFlush = false

    init(fd: Int32, slot: Int, generation: UInt32, peer: PeerAddress, now: UInt64) {
        self.fd = fd
        self.slot = slot
        self.generation = generation
        self.peer = peer
        remoteAddress = peer.text
        phaseStart = now
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
            peerClosed = true
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
