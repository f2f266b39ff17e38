import AccountCore
import Synchronization

/// Bytes made by `make` the first time they are asked for, then kept (a failure too).
final class EncodedOnce: Sendable {
    private let make: @Sendable () throws -> [UInt8]
    private let made = Mutex<Result<[UInt8], any Error>?>(nil)

    init(_ make: @escaping @Sendable () throws -> [UInt8]) { self.make = make }

    func value() throws -> [UInt8] {
        try made.withLock { made in
            if let made { return made }
            let result = Result { try make() }
            made = result
            return result
        }.get()
    }
}
