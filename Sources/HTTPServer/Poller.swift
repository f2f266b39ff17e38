#if canImport(Glibc)
import CEventPoll
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel said about one registered descriptor.
struct PollEvent {
    var token: UInt64
    var readable: Bool
    var writable: Bool
    /// The peer closed, or the socket failed: reading will say which.
    var hangUp: Bool
}

/// One event loop's readiness queue: epoll on Linux, kqueue on Darwin. Connections are watched
/// edge-triggered for reading and writing (an event when something new arrives or room frees
/// up); the listening socket level-triggered. ``wake()`` may be called from any thread.
final class Poller: @unchecked Sendable {
    /// The token of the wake-up event.
    static let wakeToken: UInt64 = .max
    private let queue: Int32
    #if canImport(Glibc)
    private let wakeDescriptor: Int32
    private var events = [epoll_event](repeating: epoll_event(), count: 256)
    #else
    private var events: [kevent] = Array(repeating: kevent(), count: 256)
    #endif

    init?() {
        #if canImport(Glibc)
        queue = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard queue >= 0, wakeDescriptor >= 0 else { return nil }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        guard epoll_ctl(queue, EPOLL_CTL_ADD, wakeDescriptor, &event) == 0 else { return nil }
        #else
        queue = kqueue()
        guard queue >= 0 else { return nil }
        var change = kevent(
            ident: 0, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0, data: 0,
            udata: UnsafeMutableRawPointer(bitPattern: UInt(Self.wakeToken)))
        guard kevent(queue, &change, 1, nil, 0, nil) == 0 else { return nil }
        #endif
    }

    deinit {
        close(queue)
        #if canImport(Glibc)
        close(wakeDescriptor)
        #endif
    }

    /// Watches a connection for reading, writing and hang-up, edge-triggered.
    func addConnection(_ fd: Int32, token: UInt64) -> Bool {
        #if canImport(Glibc)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = token
        return epoll_ctl(queue, EPOLL_CTL_ADD, fd, &event) == 0
        #else
        let flags = UInt16(EV_ADD | EV_CLEAR)
        var changes = [
            kevent(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: flags, fflags: 0, data: 0, udata: Self.pointer(token)),
            kevent(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: flags, fflags: 0, data: 0, udata: Self.pointer(token)),
        ]
        return kevent(queue, &changes, 2, nil, 0, nil) == 0
        #endif
    }

    /// Watches the listening socket, level-triggered; on Linux only one waiting loop is woken per
    /// arrival (`EPOLLEXCLUSIVE`).
    func addListener(_ fd: Int32, token: UInt64) -> Bool {
        #if canImport(Glibc)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue
        event.data.u64 = token
        return epoll_ctl(queue, EPOLL_CTL_ADD, fd, &event) == 0
        #else
        var change = kevent(
            ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD), fflags: 0, data: 0, udata: Self.pointer(token))
        return kevent(queue, &change, 1, nil, 0, nil) == 0
        #endif
    }

    /// Stops watching `fd` (closing a descriptor also does, for connections).
    func remove(_ fd: Int32) {
        #if canImport(Glibc)
        var event = epoll_event()
        _ = epoll_ctl(queue, EPOLL_CTL_DEL, fd, &event)
        #else
        var change = kevent(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil)
        _ = kevent(queue, &change, 1, nil, 0, nil)
        #endif
    }

    /// Waits up to `milliseconds` for events; returns how many came (read each with ``event(_:)``).
    func wait(milliseconds: Int32) -> Int {
        #if canImport(Glibc)
        let count = events.withUnsafeMutableBufferPointer { epoll_wait(queue, $0.baseAddress, Int32($0.count), milliseconds) }
        #else
        var timeout = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        let count = events.withUnsafeMutableBufferPointer { kevent(queue, nil, 0, $0.baseAddress, Int32($0.count), &timeout) }
        #endif
        return max(0, Int(count))
    }

    /// The `index`th event of the last ``wait(milliseconds:)``.
    func event(_ index: Int) -> PollEvent {
        let event = events[index]
        #if canImport(Glibc)
        let flags = event.events
        return PollEvent(
            token: event.data.u64, readable: flags & EPOLLIN.rawValue != 0, writable: flags & EPOLLOUT.rawValue != 0,
            hangUp: flags & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue | EPOLLERR.rawValue) != 0)
        #else
        let token = UInt64(UInt(bitPattern: event.udata))
        let hangUp = event.flags & UInt16(EV_EOF | EV_ERROR) != 0
        switch Int32(event.filter) {
        case EVFILT_READ: return PollEvent(token: token, readable: true, writable: false, hangUp: hangUp)
        case EVFILT_WRITE: return PollEvent(token: token, readable: false, writable: true, hangUp: hangUp)
        default: return PollEvent(token: token, readable: true, writable: false, hangUp: false)
        }
        #endif
    }

    /// Makes the loop's `wait` return soon; callable from any thread.
    func wake() {
        #if canImport(Glibc)
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
        #else
        var change = kevent(
            ident: 0, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0,
            udata: UnsafeMutableRawPointer(bitPattern: UInt(Self.wakeToken)))
        _ = kevent(queue, &change, 1, nil, 0, nil)
        #endif
    }

    /// Clears the wake-up signal; called by the loop when it sees the wake token.
    func consumeWake() {
        #if canImport(Glibc)
        var value: UInt64 = 0
        _ = read(wakeDescriptor, &value, 8)
        #endif
    }

    #if canImport(Darwin)
    private static func pointer(_ token: UInt64) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(token))
    }
    #endif
}
