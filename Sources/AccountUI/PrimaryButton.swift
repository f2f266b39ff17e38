#if canImport(SwiftUI)
import SwiftUI

/// The screen's main action: full width, prominent, a spinner while its request is on its way;
/// Return triggers it on a Mac (and with a hardware keyboard).
struct PrimaryButton: View {
    let title: String
    let isEnabled: Bool
    let isWorking: Bool
    var hint: String = ""
    let action: () -> Void

    var body: some View {
        Button(action: action) {
            ZStack {
                Text(title).opacity(isWorking ? 0 : 1)
                if isWorking { ProgressView() }
            }
            .frame(maxWidth: .infinity)
        }
        .buttonStyle(.borderedProminent)
        .controlSize(.large)
        .disabled(!isEnabled || isWorking)
        .keyboardShortcut(.defaultAction)
        .accessibilityLabel(title)
        .accessibilityHint(hint)
    }
}
#endif
