import CMicroHTTPD

/// A libmicrohttpd connection handle; reads the request parts and queues responses.
///
/// Sendable so an async handler's task can resume the connection; MHD allows
/// `MHD_resume_connection` from any thread.
struct MHDConnection: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The request line, headers and query (no body) as an `HTTPRequest`.
    func request(method: String, path: String) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query(), headers: headers(), body: [],
            remoteAddress: remoteAddress())
    }

    /// The `Content-Length` the client declared, `Int.max` when it does not fit, or `nil`.
    func declaredContentLength() -> Int? {
        guard let raw = MHD_lookup_connection_value(pointer, .HEADER_KIND, "Content-Length") else {
            return nil
        }
        let text = String(cString: raw)
        if let length = Int(text) { return length }
        return text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } && !text.isEmpty ? Int.max : nil
    }

    /// Whether the request carries a `Transfer-Encoding` header (a body of unknown length).
    func hasTransferEncoding() -> Bool {
        MHD_lookup_connection_value(pointer, .HEADER_KIND, "Transfer-Encoding") != nil
    }

    /// Queues `response`; `close` adds `Connection: close` (used while shutting down).
    func queue(_ response: HTTPResponse, close: Bool = false) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            // MHD computes Content-Length itself and refuses a second one; nothing else is lost.
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        if close { _ = MHD_add_response_header(mhdResponse, "Connection", "close") }
        return MHD_queue_response(pointer, UInt32(clamping: response.status), mhdResponse)
    }

    func suspend() { MHD_suspend_connection(pointer) }

    func resume() { MHD_resume_connection(pointer) }

    private func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { target in
            _ = MHD_get_connection_values(pointer, .HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                cls.assumingMemoryBound(to: HTTPHeaders.self).pointee
                    .add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return .YES
            }, target)
        }
        return headers
    }

    private func query() -> [String: String] {
        var query: [String: String] = [:]
        withUnsafeMutablePointer(to: &query) { target in
            _ = MHD_get_connection_values(pointer, .GET_ARGUMENT_KIND, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let name = String(cString: key)
                let arguments = cls.assumingMemoryBound(to: [String: String].self)
                if arguments.pointee[name] == nil {
                    arguments.pointee[name] = value.map { String(cString: $0) } ?? ""
                }
                return .YES
            }, target)
        }
        return query
    }

    private func remoteAddress() -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cmhd_client_address(pointer, buffer.baseAddress, 64) == 0 else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }
}
