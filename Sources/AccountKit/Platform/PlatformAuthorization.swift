#if canImport(AuthenticationServices)
import AuthenticationServices
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// Runs one `ASAuthorizationRequest` and returns the credential the system gives: the one step
/// the SDK's Apple authorizers (``PasskeyAuthorizer/platform(_:)``,
/// ``AppleSignInAuthorizer/platform(_:)``) leave to the app. No logic: requests are built, and
/// replies read, by code every platform runs.
///
/// ``controller(anchor:)`` presents an `ASAuthorizationController` over the app's key window;
/// a SwiftUI view can use its environment's `authorizationController` instead (AccountUI does).
/// Throws the system's error as it is (``AuthorizationError/init(_:)`` reads it).
public struct PlatformAuthorization: Sendable {
    /// Performs `request` and returns the credential.
    public var perform: @MainActor @Sendable (ASAuthorizationRequest) async throws -> ASAuthorizationCredential

    /// An authorization that performs requests with `perform`.
    public init(perform: @escaping @MainActor @Sendable (ASAuthorizationRequest) async throws -> ASAuthorizationCredential) {
        self.perform = perform
    }

    /// Through an `ASAuthorizationController` whose sheet shows over `anchor` (by default the
    /// key window of the app's active scene).
    public static func controller(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor? = { nil }) -> PlatformAuthorization {
        PlatformAuthorization { request in try await ControllerRun(anchor: anchor).perform(request) }
    }
}

/// One `ASAuthorizationController` run, from `performRequests()` to its delegate's answer.
@MainActor private final class ControllerRun: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor?
    private var controller: ASAuthorizationController?
    private var continuation: CheckedContinuation<ASAuthorizationCredential, any Error>?

    init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor?) {
        self.anchor = anchor
    }

    func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorizationCredential {
        let controller = ASAuthorizationController(authorizationRequests: [request])
        controller.delegate = self
        controller.presentationContextProvider = self
        self.controller = controller
        defer { self.controller = nil }
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            controller.performRequests()
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated { finish(.success(authorization.credential)) }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated { finish(.failure(error)) }
    }

    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() ?? Self.keyWindow() ?? ASPresentationAnchor() }
    }

    private func finish(_ result: Result<ASAuthorizationCredential, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }

    /// The key window of the app's foreground scene.
    private static func keyWindow() -> ASPresentationAnchor? {
        #if canImport(UIKit)
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let active = scenes.filter { $0.activationState == .foregroundActive }
        return (active + scenes).lazy.flatMap(\.windows).first { $0.isKeyWindow }
        #elseif canImport(AppKit)
        return NSApplication.shared.keyWindow
        #else
        return nil
        #endif
    }
}
#endif
