import Foundation

/// The RFC 5322 §3.3 date, always in UTC: `Mon, 30 Nov 2026 04:46:45 +0000`.
enum MailDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats `date` without a `DateFormatter`, so the result never depends on the locale.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(weekdays[parts.weekday! - 1]), \(two(parts.day)) \(months[parts.month! - 1]) "
            + "\(parts.year!) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
