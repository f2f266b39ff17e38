#if canImport(SwiftUI)
import SwiftUI

/// The messages under a field, one line each, read by VoiceOver as one element.
struct FieldErrorsView: View {
    let errors: [String]

    var body: some View {
        if !errors.isEmpty {
            VStack(alignment: .leading, spacing: 2) {
                ForEach(errors, id: \.self) { message in
                    Label(message, systemImage: "exclamationmark.circle")
                        .font(.footnote)
                        .foregroundStyle(.red)
                }
            }
            .accessibilityElement(children: .combine)
        }
    }
}
#endif
