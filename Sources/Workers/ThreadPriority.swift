#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scheduling priority of the calling thread.
enum ThreadPriority {
    /// The `nice` value of background threads: the scheduler then gives a request thread that
    /// wakes up the core at once and, while both run, about ten times the share of one of these.
    static let backgroundNiceness: Int32 = 10

    /// Lowers the calling thread's priority to ``backgroundNiceness`` (if it is not lower already). On Linux a thread has a
    /// `nice` value of its own (`setpriority` with id 0 names the calling thread there); elsewhere this asks for the
    /// utility quality of service. Failure leaves the priority as it was: only speed is at stake.
    static func lowerCallingThread() {
        #if os(Linux)
        // Never raised: a server started with `nice 15` keeps 15.
        guard let now = callingThreadNiceness(), now < backgroundNiceness else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, backgroundNiceness)
        #elseif canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }

    /// The calling thread's `nice` value (Linux), for tests.
    static func callingThreadNiceness() -> Int32? {
        #if os(Linux)
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 ? value : nil
        #else
        return nil
        #endif
    }
}
