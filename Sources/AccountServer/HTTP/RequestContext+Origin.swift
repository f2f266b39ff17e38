import AccountAPI
import AccountCore

extension EventOrigin {
    /// The origin of `context`'s request.
    init(_ context: RequestContext) {
        self.init(clientAddress: context.clientAddress, deviceName: UserAgent.deviceName(of: context.request.headers["User-Agent"]))
    }
}

extension RequestContext {
    /// Where this request's security events come from.
    var origin: EventOrigin { EventOrigin(self) }
}

extension AuthenticatedContext {
    /// Where this request's security events come from.
    var origin: EventOrigin { base.origin }
}
