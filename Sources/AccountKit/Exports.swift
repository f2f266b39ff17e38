// `import AccountKit` is all an app needs: the wire models and rules of `AccountAPI` (`User`,
// `MBTI`, `SessionInfo`, the request and reply types, `ErrorCode`, `FieldErrorCode`, `Language`,
// `Messages`, the field rules) come with it. Re-exported rather than mirrored by typealiases, so
// there is one name for each type, its documentation is its own, and a type `AccountAPI` gains
// reaches apps without a change here. `@_exported` is underscored but stable in practice
// (swift-corelibs and most SDKs that split a wire module out use it); should it go, each type
// gets a typealias here instead.
@_exported import AccountAPI
