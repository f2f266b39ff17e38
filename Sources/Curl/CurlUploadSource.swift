import CCurl

/// The bytes of one upload and how far libcurl has read them.
final class CurlUploadSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a source that hands out `bytes` once, front to back.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies up to `capacity` unread bytes to `buffer` and returns how many; 0 ends the upload.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// libcurl's read callback: `context` is an unretained ``CurlUploadSource``. A C function
/// pointer cannot capture, so the source travels through `CURLOPT_READDATA`.
let curlReadFromUploadSource: curl_read_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let source = Unmanaged<CurlUploadSource>.fromOpaque(context).takeUnretainedValue()
    return source.read(into: buffer, capacity: size * count)
}
