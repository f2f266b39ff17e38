import AccountAPI

/// The shared JSON coders of the server: made once, reused by every request.
package enum JSONCoding {
    package static let encoder = AccountJSON.makeEncoder()
    package static let decoder = AccountJSON.makeDecoder()
}
