import AccountCore
import HTTPServer

/// Counts the outcome of every login attempt of its group in the operators' hourly figures.
final class LoginCounting: Middleware {
    let activity: ActivityCounters

    init(activity: ActivityCounters) {
        self.activity = activity
    }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        if let error = context.failure {
            if let error = error as? APIError, let counter = ActivityCounters.loginCounter(for: error.code) {
                activity.count(counter, at: context.now)
            }
        } else if (200..<300).contains(response.status) {
            activity.count(.loginsSucceeded, at: context.now)
        }
    }
}
