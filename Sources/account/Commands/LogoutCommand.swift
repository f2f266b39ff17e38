import AccountAPI
import AccountKit

/// `account logout [--all]`: ends the session on the server (best effort) and forgets it here.
enum LogoutCommand {
    static func run(_ context: Context) async throws {
        let everywhere = context.invocation.has("all")
        try await context.signedIn().logOut(scope: everywhere ? .global : .local)
        context.report(everywhere
            ? context.say("Signed out on every device.", "모든 기기에서 로그아웃했어요.")
            : context.say("Signed out.", "로그아웃했어요."))
    }
}
