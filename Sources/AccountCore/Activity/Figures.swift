import AccountAPI
import AccountStore
import Foundation

/// The operators' figures from the hourly counters: the last 24 hours and the last 30 days (UTC),
/// oldest first, the last bucket the one `now` is in, quiet ones with zeros.
package enum Figures {
    package static let hours = 24
    package static let days = 30

    /// The earliest hour the figures at `now` need.
    package static func firstHour(now: Date) -> Date {
        Date(timeIntervalSince1970: TimeInterval(dayStart(of: now) - Int64(days - 1) * 86_400))
    }

    package static func make(_ counts: [HourlyCount], now: Date) -> AdminFigures {
        let currentHour = ActivityCounters.hourStart(of: now)
        let currentDay = dayStart(of: now)
        var hourly = [Tally](repeating: Tally(), count: hours)
        var daily = [Tally](repeating: Tally(), count: days)
        for count in counts {
            guard let counter = ActivityCounter(rawValue: count.name) else { continue }
            let hour = ActivityCounters.hourStart(of: count.hour)
            let hoursBack = Int((currentHour - hour) / 3600)
            if (0..<hours).contains(hoursBack), hour <= currentHour { hourly[hours - 1 - hoursBack].add(counter, count.value) }
            let daysBack = Int((currentDay - dayStart(of: count.hour)) / 86_400)
            if (0..<days).contains(daysBack), hour <= currentHour { daily[days - 1 - daysBack].add(counter, count.value) }
        }
        return AdminFigures(
            hourly: hourly.enumerated().map { $1.bucket(start: currentHour - Int64(hours - 1 - $0) * 3600) },
            daily: daily.enumerated().map { $1.bucket(start: currentDay - Int64(days - 1 - $0) * 86_400) })
    }

    /// The start of the UTC day of `date`, in seconds since 1970.
    package static func dayStart(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 86_400).rounded(.down)) * 86_400
    }

    /// One bucket's sums, by counter.
    private struct Tally {
        package var values: [ActivityCounter: Int64] = [:]

        package mutating func add(_ counter: ActivityCounter, _ value: Int64) { values[counter, default: 0] += value }

        package func bucket(start: Int64) -> FiguresBucket {
            func value(_ counter: ActivityCounter) -> Int { Int(clamping: values[counter] ?? 0) }
            return FiguresBucket(
                start: Date(timeIntervalSince1970: TimeInterval(start)), signups: value(.signups),
                logins: LoginFigures(
                    succeeded: value(.loginsSucceeded), failed: value(.loginsFailed), mfaRequired: value(.loginsMFARequired),
                    refused: value(.loginsRefused)),
                refreshes: value(.refreshes), codesSent: value(.codesSent))
        }
    }
}
