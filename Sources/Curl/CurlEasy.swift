import CCurl

/// One libcurl easy handle: owns the handle, the error buffer, the lists it was given and the
/// upload and body buffers, and frees them all in `deinit`. Every option is checked.
///
/// Not thread-safe: one instance serves one transfer on one thread.
///
/// ```swift
/// let curl = try CurlEasy()
/// try curl.set(.url, "https://example.com/keys")
/// try curl.set(.protocols, "https")
/// try curl.setTimeout(5)
/// try curl.collectBody(upTo: 64 * 1024)
/// try curl.perform()
/// print(curl.responseCode, curl.body.count)
/// ```
public final class CurlEasy {
    /// An option whose value is text; libcurl keeps its own copy.
    public enum TextOption: Sendable {
        case url
        /// Comma-separated schemes the handle may speak (`"smtp,smtps"`, `"http,https"`).
        case protocols
        /// A PEM file of certificates to trust instead of the system's.
        case caFile
        case username
        case password
        /// SMTP's `MAIL FROM` address, with its angle brackets.
        case mailFrom
        case userAgent
        /// A request body to POST, copied by libcurl (`CURLOPT_COPYPOSTFIELDS`).
        case postFields
    }

    /// An option whose value is a list of texts.
    public enum ListOption: Sendable {
        /// SMTP's `RCPT TO` addresses, each with its angle brackets.
        case mailRecipients
    }

    /// When a connection uses TLS, beyond a scheme that always does (`smtps`, `https`).
    public enum TLSUse: Sendable {
        /// Upgrade (STARTTLS) when the server offers it, plain text otherwise.
        case whenOffered
        /// Upgrade or fail.
        case always
    }

    /// libcurl's process-wide setup, run once before the first handle (a static `let` is
    /// initialized exactly once even when many threads race to it).
    private static let globalInit: CURLcode = ccurl_global_init_all()

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    /// Held here so they live as long as libcurl may call back into them.
    private var uploadSource: CurlUploadSource?
    private var bodySink: CurlBodySink?

    /// Creates a handle with an error buffer and signals off (it runs on worker threads).
    public init() throws(CurlError) {
        guard Self.globalInit == CURLE_OK else {
            throw .unavailable("libcurl could not be initialized: \(Self.describe(Self.globalInit))")
        }
        guard let handle = curl_easy_init() else {
            throw .unavailable("libcurl could not create a handle")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        // Signals (the default timeout mechanism) are unsafe with many threads.
        try set(CURLOPT_NOSIGNAL, 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        errorBuffer.deallocate()
    }

    /// Sets a text option.
    public func set(_ option: TextOption, _ value: String) throws(CurlError) {
        let raw = Self.raw(option)
        try check(value.withCString { ccurl_setopt_string(handle, raw, $0) }, "option \(raw.rawValue)")
    }

    /// Sets a list option; the list lives as long as this handle.
    public func set(_ option: ListOption, _ values: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let longer = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw .refused("libcurl is out of memory")
            }
            list = longer
        }
        guard let list else { return }
        lists.append(list)
        let raw = switch option { case .mailRecipients: CURLOPT_MAIL_RCPT }
        try check(ccurl_setopt_slist(handle, raw, list), "option \(raw.rawValue)")
    }

    /// Bounds the connection and the whole exchange, each, to `seconds` (at least a millisecond).
    public func setTimeout(_ seconds: Double) throws(CurlError) {
        let millis = max(1, Int(seconds * 1000))
        try set(CURLOPT_CONNECTTIMEOUT_MS, millis)
        try set(CURLOPT_TIMEOUT_MS, millis)
    }

    /// Asks for TLS on connections whose scheme does not already mean it. Certificates are
    /// verified whenever TLS is used (libcurl's default, never turned off here).
    public func useTLS(_ use: TLSUse) throws(CurlError) {
        let level = switch use {
        case .whenOffered: CURLUSESSL_TRY
        case .always: CURLUSESSL_ALL
        }
        try set(CURLOPT_USE_SSL, Int(level.rawValue))
    }

    /// Whether a redirect reply is followed (libcurl's default: not).
    public func followRedirects(_ follow: Bool) throws(CurlError) {
        try set(CURLOPT_FOLLOWLOCATION, follow ? 1 : 0)
    }

    /// Uploads `bytes` (SMTP's DATA), announcing their size first (SMTP's `SIZE` on `MAIL FROM`
    /// lets a server refuse an oversized message before the upload).
    public func upload(_ bytes: [UInt8]) throws(CurlError) {
        try set(CURLOPT_INFILESIZE, bytes.count)
        let source = CurlUploadSource(bytes)
        uploadSource = source
        try set(CURLOPT_UPLOAD, 1)
        try check(ccurl_setopt_read_function(handle, curlReadFromUploadSource), "CURLOPT_READFUNCTION")
        try check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque()), "CURLOPT_READDATA")
    }

    /// Keeps the reply's body in ``body``, at most `limit` bytes: a declared longer length fails
    /// the transfer before it starts, and a longer body aborts it once it goes over (then
    /// ``bodyOverflowed`` is set).
    public func collectBody(upTo limit: Int) throws(CurlError) {
        try set(CURLOPT_MAXFILESIZE_LARGE, limit)
        let sink = CurlBodySink(limit: limit)
        bodySink = sink
        try check(ccurl_setopt_write_function(handle, curlWriteToBodySink), "CURLOPT_WRITEFUNCTION")
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()), "CURLOPT_WRITEDATA")
    }

    /// The body received so far (empty unless ``collectBody(upTo:)`` was called).
    public var body: [UInt8] { bodySink?.bytes ?? [] }

    /// Whether the body went over the limit given to ``collectBody(upTo:)``.
    public var bodyOverflowed: Bool { bodySink?.overflowed ?? false }

    /// Runs the transfer, blocking the calling thread until it ends.
    /// - Throws: ``CurlError/transferFailed(reason:detail:)`` with libcurl's reason (never the
    ///   credentials, which callers pass as options of their own).
    public func perform() throws(CurlError) {
        errorBuffer[0] = 0
        let code = curl_easy_perform(handle)
        guard code != CURLE_OK else { return }
        let reason = Self.describe(code)
        let detail = String(cString: errorBuffer)
        throw .transferFailed(reason: reason, detail: detail.isEmpty ? reason : detail)
    }

    /// The last reply code the server sent (an HTTP status, an SMTP code such as 250 or 451), or 0.
    public var responseCode: Int {
        var code = 0
        return ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    private func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(ccurl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: String) throws(CurlError) {
        guard code == CURLE_OK else {
            throw .refused("libcurl refused \(what): \(Self.describe(code))")
        }
    }

    private static func raw(_ option: TextOption) -> CURLoption {
        switch option {
        case .url: CURLOPT_URL
        case .protocols: CURLOPT_PROTOCOLS_STR
        case .caFile: CURLOPT_CAINFO
        case .username: CURLOPT_USERNAME
        case .password: CURLOPT_PASSWORD
        case .mailFrom: CURLOPT_MAIL_FROM
        case .userAgent: CURLOPT_USERAGENT
        case .postFields: CURLOPT_COPYPOSTFIELDS
        }
    }

    private static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
