import CMicroHTTPD

/// libmicrohttpd's access handler: `cls` is the retained `HTTPServer`.
let mhdAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(
        MHDConnection(pointer: connection), url: url, method: method, uploadData: uploadData,
        uploadSize: uploadSize, slot: slot)
}

/// libmicrohttpd's request-completed callback; also fires on aborts and timeouts.
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, _ in
    guard let cls, let slot, let raw = slot.pointee else { return }
    slot.pointee = nil
    let context = Unmanaged<ConnectionContext>.fromOpaque(raw).takeRetainedValue()
    if context.registered {
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().inFlight.leave()
    }
}

extension HTTPServer {
    /// One call of the access handler: MHD calls it once with the headers, once per piece of
    /// body, and once more with no data when the request is complete (and again after a resume).
    func handle(
        _ connection: MHDConnection, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else {
            let context = ConnectionContext()
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            // MHD accepts a response before the body is read; it then never reads the body.
            // A chunked body is refused here because MHD 0.9.75 answers its own 500 to a chunk
            // line longer than its per-connection pool (see `HTTPResponse.lengthRequired`).
            if connection.hasTransferEncoding() {
                context.answered = true
                return connection.queue(lengthRequired(request(connection, url, method)), close: true)
            }
            if let length = connection.declaredContentLength(), length > configuration.maxBodySize {
                context.answered = true
                return connection.queue(tooLarge(request(connection, url, method)), close: true)
            }
            return .YES
        }
        let context = Unmanaged<ConnectionContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let uploadData, !context.answered {
                context.append(uploadData, count: uploadSize.pointee, limit: configuration.maxBodySize)
            }
            uploadSize.pointee = 0
            return .YES
        }
        if context.answered { return .YES }
        if let response = context.response {
            context.answered = true
            context.response = nil
            return connection.queue(response, close: inFlight.isStopping)
        }
        return answer(connection, context, request(connection, url, method))
    }

    /// Answers a complete request: too large, fast path, or the async handler.
    private func answer(_ connection: MHDConnection, _ context: ConnectionContext, _ head: HTTPRequest) -> MHD_Result {
        if context.overflowed {
            context.answered = true
            return connection.queue(tooLarge(head), close: true)
        }
        var request = head
        request.body = context.takeBody()
        if request.body.isEmpty, let fastHandler, let response = fastHandler(request) {
            context.answered = true
            return connection.queue(response, close: inFlight.isStopping)
        }
        guard inFlight.enter() else {
            context.answered = true
            return connection.queue(HTTPResponse(status: 503), close: true)
        }
        context.registered = true
        connection.suspend()
        Task { [handler] in
            context.response = await handler(request)
            connection.resume()
        }
        return .YES
    }

    private func request(
        _ connection: MHDConnection, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?
    ) -> HTTPRequest {
        connection.request(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
    }
}
