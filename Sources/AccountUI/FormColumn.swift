#if canImport(SwiftUI)
import SwiftUI

/// The scrolling column of a form screen: its parts one under the other, the focused field
/// scrolled into view (SwiftUI keeps it above the keyboard by itself), the keyboard put away by
/// dragging, and the 400-point column on iPad and Mac (``SwiftUI/View/accountColumn()``).
struct FormColumn<Field: Hashable, Content: View>: View {
    /// The screen's focused field, followed by the scroll position.
    let focus: Field?
    @ViewBuilder let content: Content

    var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                VStack(alignment: .leading, spacing: 20) {
                    content
                }
                .padding()
                .accountColumn()
            }
            .scrollDismissesKeyboard(.interactively)
            .scrollsToFocus(focus, with: proxy)
        }
    }
}
#endif
