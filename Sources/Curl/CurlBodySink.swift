import CCurl

/// The reply's body as it arrives, up to its limit.
final class CurlBodySink {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    /// Set when the body went over `limit`; the transfer was aborted there.
    private(set) var overflowed = false

    init(limit: Int) { self.limit = limit }

    /// Appends `length` bytes at `data`, or marks the sink overflowed and appends nothing when
    /// they would take it over its limit. Returns whether they were taken.
    func append(_ data: UnsafeMutablePointer<CChar>, length: Int) -> Bool {
        guard bytes.count + length <= limit else {
            overflowed = true
            return false
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        return true
    }
}

/// libcurl's write callback: `context` is an unretained ``CurlBodySink``. A count other than the
/// one given (0) aborts the transfer once the body is over its limit.
let curlWriteToBodySink: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<CurlBodySink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return sink.append(data, length: length) ? length : 0
}
