/// The operations, each made over these services: how the server's routes and commands reach them.
extension Services {
    package var accountAdministration: AccountAdministration { AccountAdministration(services: self) }
    package var appleLinkOperations: AppleLinkOperations { AppleLinkOperations(services: self) }
    package var appleLoginOperations: AppleLoginOperations { AppleLoginOperations(services: self) }
    package var appleSignUpOperations: AppleSignUpOperations { AppleSignUpOperations(services: self) }
    package var emailCodeOperations: EmailCodeOperations { EmailCodeOperations(services: self) }
    package var emailVerificationOperations: EmailVerificationOperations { EmailVerificationOperations(services: self) }
    package var figuresOperations: FiguresOperations { FiguresOperations(services: self) }
    package var loginOperations: LoginOperations { LoginOperations(services: self) }
    package var logoutOperations: LogoutOperations { LogoutOperations(services: self) }
    package var operatorAuditOperations: OperatorAuditOperations { OperatorAuditOperations(services: self) }
    package var passkeyLoginOperations: PasskeyLoginOperations { PasskeyLoginOperations(services: self) }
    package var passkeyOperations: PasskeyOperations { PasskeyOperations(services: self) }
    package var passwordOperations: PasswordOperations { PasswordOperations(services: self) }
    package var probeOperations: ProbeOperations { ProbeOperations(services: self) }
    package var profileOperations: ProfileOperations { ProfileOperations(services: self) }
    package var refreshOperations: RefreshOperations { RefreshOperations(services: self) }
    package var secondFactorLoginOperations: SecondFactorLoginOperations { SecondFactorLoginOperations(services: self) }
    package var secondFactorOperations: SecondFactorOperations { SecondFactorOperations(services: self) }
    package var securityEventOperations: SecurityEventOperations { SecurityEventOperations(services: self) }
    package var sessionOperations: SessionOperations { SessionOperations(services: self) }
    package var signUpOperations: SignUpOperations { SignUpOperations(services: self) }
}
