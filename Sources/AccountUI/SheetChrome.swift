#if canImport(SwiftUI)
import SwiftUI

extension View {
    /// The way out of a sheet's flow: a Cancel button while `isCancellable`; once a step must be
    /// finished (recovery codes not yet saved), neither the button nor a swipe closes the sheet.
    func cancellable(_ title: String, while isCancellable: Bool) -> some View {
        modifier(CancellableSheet(title: title, isCancellable: isCancellable))
    }
}

private struct CancellableSheet: ViewModifier {
    let title: String
    let isCancellable: Bool
    @Environment(\.dismiss) private var dismiss

    func body(content: Content) -> some View {
        content
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    if isCancellable {
                        Button(title) { dismiss() }
                    }
                }
            }
            .interactiveDismissDisabled(!isCancellable)
    }
}
#endif
