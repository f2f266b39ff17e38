#if canImport(Glibc)
import CEventPoll
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls the server makes, with the differences between Linux and Darwin kept here.
enum Socket {
    /// What one `accept` gave.
    enum Accepted {
        case connection(Int32, PeerAddress)
        /// Nothing waiting (or a connection that vanished before it was taken).
        case none
        /// The process or system is out of file descriptors.
        case outOfDescriptors
        /// Try again at once (interrupted, or the peer aborted).
        case retry
    }

    /// A non-blocking listening socket bound to `address`, or a message saying why not.
    static func listen(on address: SocketAddress, backlog: Int32) -> Result<Int32, HTTPServerError> {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failure(.cannotListen("cannot create a socket (errno \(errno))")) }
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if address.isIPv6 { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        let bound = address.withSockaddr { pointer in
            bind(fd, pointer, socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size))
        }
        guard bound == 0, makeNonBlocking(fd), systemListen(fd, backlog) == 0 else {
            close(fd)
            return .failure(.cannotListen("cannot listen (in use or not permitted)"))
        }
        return .success(fd)
    }

    /// The port `fd` is bound to, or 0.
    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard found == 0 else { return 0 }
        return PeerAddress.port(of: storage)
    }

    /// Takes one waiting connection from `listener`, non-blocking and close-on-exec, with Nagle off.
    static func accept(_ listener: Int32) -> Accepted {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                #if canImport(Glibc)
                CEventPoll.accept4(listener, address, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                #else
                Darwin.accept(listener, address, &length)
                #endif
            }
        }
        guard fd >= 0 else {
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: return .retry
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
            default: return .none
            }
        }
        #if canImport(Darwin)
        guard makeNonBlocking(fd) else {
            close(fd)
            return .retry
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        return .connection(fd, PeerAddress(storage))
    }

    /// Closes with a reset rather than a FIN: for connections refused on arrival, which are not
    /// worth a lingering socket in the kernel.
    static func resetAndClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Reads into `buffer`: the byte count, 0 at the end of the stream, -1 when nothing is there
    /// now, or -2 on an error (the connection is gone).
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            let n = recv(fd, buffer, count, 0)
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return -1
            default: return -2
            }
        }
    }

    /// Writes from `buffer`: the byte count, -1 when the socket is full now, or -2 on an error.
    static func send(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
            #else
            let n = Darwin.send(fd, buffer, count, 0)
            #endif
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return -1
            default: return -2
            }
        }
    }

    /// Ends the writing half (the client sees the end of the reply), keeping the reading half.
    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
    }

    /// A descriptor to give back when the process runs out of them (see ``EventLoop``).
    static func spareDescriptor() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Raises the soft limit on open files towards `wanted` (at most the hard limit) and returns
    /// the soft limit in force.
    static func raiseDescriptorLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        if limit.rlim_cur < rlim_t(wanted) {
            var raised = limit
            raised.rlim_cur = min(rlim_t(wanted), limit.rlim_max)  // RLIM_INFINITY is the largest value
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Milliseconds on a clock that never goes back.
    static func monotonicMilliseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
    }

    private static func makeNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// `listen(2)`, named apart from ``Socket/listen(on:backlog:)``.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.listen(fd, backlog)
    #else
    Darwin.listen(fd, backlog)
    #endif
}
