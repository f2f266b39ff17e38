#if canImport(SwiftUI)
import Combine
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

extension View {
    /// Keeps `height` at the on-screen keyboard's height on iPhone and iPad (0 elsewhere), so a
    /// screen that ignores the keyboard safe area can pad by it instead of jumping.
    func observesKeyboardHeight(_ height: Binding<CGFloat>) -> some View {
        modifier(KeyboardHeightObserver(height: height))
    }
}

/// Follows the keyboard's show and hide notifications.
struct KeyboardHeightObserver: ViewModifier {
    @Binding var height: CGFloat

    func body(content: Content) -> some View {
        #if os(iOS) && !targetEnvironment(macCatalyst)
        content
            .onReceive(NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)) { note in
                let frame = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue
                height = frame?.height ?? 0
            }
            .onReceive(NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)) { _ in
                height = 0
            }
        #else
        content
        #endif
    }
}
#endif
