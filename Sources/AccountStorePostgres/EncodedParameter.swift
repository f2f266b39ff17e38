import AccountStoreSQL

/// A parameter in the form `PQexecPrepared` takes: bytes it may read until `free()`.
///
/// Text goes in text format (NUL-terminated); blobs as bytea in binary format, so no escaping is
/// needed; flags as `BOOLEAN` text.
struct EncodedParameter {
    /// `nil` for SQL NULL.
    let pointer: UnsafeMutablePointer<CChar>?
    let length: Int32
    /// 0 for text, 1 for binary.
    let format: Int32

    init(_ value: SQLValue) {
        switch value {
        case .integer(let number): self.init(text: String(number))
        case .text(let text): self.init(text: text)
        case .bool(let flag): self.init(text: flag ? "true" : "false")
        case .blob(let bytes):
            // A zero-length value still needs a pointer: NULL would mean SQL NULL.
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
            }
            self.init(pointer: buffer, length: Int32(bytes.count), format: 1)
        case .null:
            self.init(pointer: nil, length: 0, format: 0)
        }
    }

    private init(text: String) {
        let utf8 = Array(text.utf8CString)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        buffer.initialize(from: utf8, count: utf8.count)
        self.init(pointer: buffer, length: 0, format: 0)
    }

    private init(pointer: UnsafeMutablePointer<CChar>?, length: Int32, format: Int32) {
        self.pointer = pointer
        self.length = length
        self.format = format
    }

    func free() {
        pointer?.deallocate()
    }
}
