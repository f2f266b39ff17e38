import AccountStore
import AccountStoreSQL
import CLibPQ

/// A libpq result, cleared when released; rows are read through ``forEachRow(_:)``.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    /// Rows an INSERT, UPDATE or DELETE changed (0 for other statements).
    var changedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// One field of an error result, such as its SQLSTATE.
    func errorField(_ code: Int32) -> String? {
        PQresultErrorField(handle, code).map { String(cString: $0) }
    }

    /// Calls `body` with every row, in order.
    func forEachRow(_ body: (any SQLRow) throws -> Void) rethrows {
        for row in 0..<PQntuples(handle) { try body(PGRow(result: handle, row: row)) }
    }
}

/// One row of a text-format result; valid only inside the ``PGResult/forEachRow(_:)`` callback.
struct PGRow: SQLRow {
    let result: OpaquePointer
    let row: Int32

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) != 0 }

    func text(_ column: Int32) -> String {
        guard let value = PQgetvalue(result, row, column) else { return "" }
        return String(cString: value)
    }

    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
    func bool(_ column: Int32) -> Bool { text(column) == "t" }

    /// A bytea column, which text format sends hex-encoded as `\x0a1b…`.
    func blob(_ column: Int32) throws -> [UInt8] {
        guard let value = PQgetvalue(result, row, column) else { return [] }
        let length = Int(PQgetlength(result, row, column))
        let hex = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
        guard length >= 2, length % 2 == 0, hex[0] == UInt8(ascii: "\\"), hex[1] == UInt8(ascii: "x") else {
            throw StoreError.failure(reason: "column \(column) is not hex-encoded bytea (set bytea_output = hex)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((length - 2) / 2)
        var index = 2
        while index < length {
            guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else {
                throw StoreError.failure(reason: "column \(column) holds malformed bytea")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

private func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
}
