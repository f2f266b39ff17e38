import CCurl

/// One libcurl easy handle: owns the handle, the error buffer and the lists it was given,
/// and frees them all in `deinit`. Every setopt passes ``check(_:_:)``.
///
/// Not thread-safe: one instance serves one transfer on one thread.
final class CurlEasy {
    /// libcurl's process-wide setup, run once before the first handle (a static `let` is
    /// initialized exactly once even when many threads race to it).
    private static let globalInit: CURLcode = ccurl_global_init_all()

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lists: [UnsafeMutablePointer<curl_slist>] = []

    /// Creates a handle with an error buffer and signals off (it runs on worker threads).
    /// - Throws: ``MailError/deliveryFailed(_:)`` when libcurl cannot be set up.
    init() throws {
        guard Self.globalInit == CURLE_OK else {
            throw MailError.deliveryFailed("libcurl could not be initialized: \(Self.describe(Self.globalInit))")
        }
        guard let handle = curl_easy_init() else {
            throw MailError.deliveryFailed("libcurl could not create a handle")
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

    /// Sets a numeric option.
    func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    /// Sets a string option; libcurl keeps its own copy.
    func set(_ option: CURLoption, _ value: String) throws {
        try check(value.withCString { ccurl_setopt_string(handle, option, $0) }, "option \(option.rawValue)")
    }

    /// Sets a list option (e.g. recipients); the list lives as long as this handle.
    func set(_ option: CURLoption, list values: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let longer = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw MailError.deliveryFailed("libcurl is out of memory")
            }
            list = longer
        }
        guard let list else { return }
        lists.append(list)
        try check(ccurl_setopt_slist(handle, option, list), "option \(option.rawValue)")
    }

    /// Streams the upload from `source`, which must stay alive until ``perform()`` returns.
    func setUpload(from source: CurlUploadSource) throws {
        try set(CURLOPT_UPLOAD, 1)
        try check(ccurl_setopt_read_function(handle, curlReadFromUploadSource), "CURLOPT_READFUNCTION")
        let context = Unmanaged.passUnretained(source).toOpaque()
        try check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, context), "CURLOPT_READDATA")
    }

    /// Runs the transfer, blocking the calling thread until it ends.
    /// - Returns: `nil` on success, otherwise libcurl's reason (never the URL's credentials,
    ///   which callers pass separately).
    func perform() -> String? {
        errorBuffer[0] = 0
        let code = curl_easy_perform(handle)
        guard code != CURLE_OK else { return nil }
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? Self.describe(code) : detail
    }

    /// The last reply code the server sent (an SMTP code such as 250 or 451), or 0.
    var lastReplyCode: Int {
        var code = 0
        return ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    private func check(_ code: CURLcode, _ what: String) throws {
        guard code == CURLE_OK else {
            throw MailError.deliveryFailed("libcurl refused \(what): \(Self.describe(code))")
        }
    }

    private static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
