#if canImport(SwiftUI)
import SwiftUI

extension View {
    /// The frame of a flow in a sheet: a Cancel button while `canCancel` (once a step must be
    /// finished, such as recovery codes not yet saved, neither the button nor a swipe closes the
    /// sheet), and the sheet closes by itself once `isFinished` (the flow is done, or the session
    /// ended meanwhile).
    func sheetFlow(cancelTitle: String, canCancel: Bool, isFinished: Bool) -> some View {
        modifier(SheetFlow(cancelTitle: cancelTitle, canCancel: canCancel, isFinished: isFinished))
    }
}

private struct SheetFlow: ViewModifier {
    let cancelTitle: String
    let canCancel: Bool
    let isFinished: Bool
    @Environment(\.dismiss) private var dismiss

    func body(content: Content) -> some View {
        content
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    if canCancel {
                        Button(cancelTitle) { dismiss() }
                    }
                }
            }
            .interactiveDismissDisabled(!canCancel)
            .onChange(of: isFinished) { _, finished in
                if finished { dismiss() }
            }
    }
}
#endif
