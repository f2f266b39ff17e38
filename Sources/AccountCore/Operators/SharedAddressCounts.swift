import AccountStore

extension Services {
    /// The store the per-address request counts live in when the servers share them
    /// (`sharesAddressLimit`); `nil` when each process counts its own.
    package var sharedAddressCounts: (any AccountStore)? { configuration.sharesAddressLimit ? store : nil }
}
