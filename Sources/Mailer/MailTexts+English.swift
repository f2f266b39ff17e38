extension MailTexts {
    /// English texts.
    static let english = MailTexts(
        greeting: "Hello,",
        signature: "— The MBTI Playground team",
        signupSubject: "Your sign-up code",
        signupIntro: "Welcome to MBTI Playground! Enter this code to finish signing up:",
        verifySubject: "Confirm your email address",
        verifyIntro: "Enter this code in MBTI Playground to confirm your email address:",
        resetSubject: "Your password reset code",
        resetIntro: "Enter this code in MBTI Playground to choose a new password:",
        resetNotYou: "If you didn't ask to reset your password, ignore this email; your password stays as it is.",
        alreadySubject: "You already have an account",
        alreadyBody: [
            "Someone (maybe you) just tried to sign up for MBTI Playground with this email address. "
                + "It already has an account, so nothing new was created.",
            "You can log in with your nickname or this email address. If you forgot your password, "
                + "choose “Forgot your password?” on the login screen to set a new one.",
            "If it wasn't you, just ignore this email. Your account is safe.",
        ],
        lifetime: { minutes in
            "The code is valid for \(minutes) \(minutes == 1 ? "minute" : "minutes")."
        },
        notYou: { purpose in
            switch purpose {
            case .signup: "If you didn't ask for it, ignore this email and no account will be created."
            case .verify: "If you didn't ask for it, you can safely ignore this email."
            }
        },
        signingUpAs: { nickname in "You are signing up for MBTI Playground as “\(nickname)”." },
        notYourSignUp: { nickname in
            "If “\(nickname)” is not the nickname you chose, someone else is signing up with your email address: "
                + "do not enter this code, and sign up again yourself if you want an account."
        })
}
