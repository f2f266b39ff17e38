import Foundation

/// Times for people at this terminal: in the local time zone (`TZ`, else the system's), minutes
/// precision, e.g. `2026-11-30 23:05`. JSON output keeps the API's RFC 3339 UTC.
enum LocalTime {
    static func string(from date: Date, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
