import AccountAPI

extension MailTexts {
    /// Korean texts, in the friendly polite style (해요체) the app speaks.
    static let korean = MailTexts(
        greeting: "안녕하세요,",
        signature: "— MBTI Playground 드림",
        signupSubject: "회원가입 인증 코드",
        signupIntro: "MBTI Playground에 오신 것을 환영해요! 아래 코드를 입력하면 가입이 완료돼요.",
        verifySubject: "이메일 인증 코드",
        verifyIntro: "MBTI Playground에서 아래 코드를 입력해 이메일 주소를 인증해 주세요.",
        resetSubject: "비밀번호 재설정 코드",
        resetIntro: "MBTI Playground에서 아래 코드를 입력하고 새 비밀번호를 정해 주세요.",
        resetNotYou: "비밀번호 재설정을 요청하지 않으셨다면 이 메일은 무시해 주세요. 비밀번호는 그대로예요.",
        alreadySubject: "이미 가입된 계정이 있어요",
        alreadyBody: [
            "누군가(본인일 수도 있어요) 이 이메일 주소로 MBTI Playground 가입을 시도했어요. "
                + "이 주소로 이미 계정이 있어서 새 계정은 만들어지지 않았어요.",
            "닉네임이나 이 이메일 주소로 로그인해 주세요. 비밀번호가 기억나지 않으면 "
                + "로그인 화면의 ‘비밀번호를 잊으셨나요?’를 눌러 새로 정할 수 있어요.",
            "본인이 시도한 게 아니라면 이 메일은 무시하셔도 돼요. 계정은 안전해요.",
        ],
        lifetime: { minutes in "이 코드는 \(minutes)분 동안 유효해요." },
        notYou: { purpose in
            switch purpose {
            case .signup: "요청하지 않으셨다면 이 메일은 무시해 주세요. 계정은 만들어지지 않아요."
            case .verify: "요청하지 않으셨다면 이 메일은 무시하셔도 괜찮아요."
            }
        },
        signingUpAs: { nickname in "MBTI Playground에 “\(nickname)” 닉네임으로 가입하고 있어요." },
        notYourSignUp: { nickname in
            "\(KoreanParticle.subject.attached(to: "“\(nickname)”")) 직접 정한 닉네임이 아니라면 다른 사람이 이 이메일 주소로 가입하려는 거예요. "
                + "이 코드는 입력하지 말고, 계정이 필요하면 직접 다시 가입해 주세요."
        })
}
