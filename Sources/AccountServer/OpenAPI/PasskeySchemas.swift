import AccountAPI
import AccountCore

/// The request and reply schemas of passkeys: WebAuthn Level 3's JSON forms (camelCase, as the
/// spec names them) and the server's own (snake_case).
enum PasskeySchemas {
    static func base64url(_ description: String) -> JSONValue {
        Schema.string(description + " Unpadded base64url.", minLength: 1, pattern: "^[A-Za-z0-9_-]+$")
    }

    static let descriptor = Schema.object(
        [
            "type": Schema.constant("public-key"), "id": base64url("A credential id."),
            "transports": Schema.array(Schema.string(), description: "Where the authenticator may be reached (`internal`, `hybrid`, `usb`, …)."),
        ], required: ["type", "id"])

    static var all: [String: JSONValue] {
        [
            "PasskeyCreationOptions": Schema.object(
                [
                    "rp": Schema.object(
                        ["id": Schema.string("`--webauthn-rp-id` (default: the issuer's host)."), "name": Schema.string("`--webauthn-rp-name`.")],
                        required: ["id", "name"]),
                    "user": Schema.object(
                        [
                            "id": base64url("The user handle: the account id's 16 bytes."),
                            "name": Schema.string("The account's email address."), "displayName": Schema.string("The nickname."),
                        ], required: ["id", "name", "displayName"]),
                    "challenge": base64url("32 random bytes; single use, valid for `timeout`."),
                    "pubKeyCredParams": Schema.array(
                        Schema.object(["type": Schema.constant("public-key"), "alg": Schema.integer("A COSE algorithm.")], required: ["type", "alg"]),
                        description: "`-8` (EdDSA), `-7` (ES256), `-257` (RS256), in that order."),
                    "timeout": Schema.integer("Milliseconds: 300000 (5 minutes).", minimum: 0),
                    "excludeCredentials": Schema.array(descriptor, description: "The account's passkeys, so a device does not make a second one."),
                    "authenticatorSelection": Schema.object(
                        [
                            "residentKey": Schema.constant("required"), "requireResidentKey": Schema.constant(true),
                            "userVerification": Schema.constant("required"),
                        ], required: ["residentKey", "requireResidentKey", "userVerification"]),
                    "attestation": Schema.constant("none"),
                    "hints": Schema.array(Schema.string()),
                ], required: ["rp", "user", "challenge", "pubKeyCredParams", "timeout", "excludeCredentials", "authenticatorSelection", "attestation", "hints"],
                description: "WebAuthn L3 `PublicKeyCredentialCreationOptionsJSON`: give it to `PublicKeyCredential.parseCreationOptionsFromJSON()`."),
            "PasskeyRequestOptions": Schema.object(
                [
                    "challenge": base64url("32 random bytes; single use, valid for `timeout`."),
                    "timeout": Schema.integer("Milliseconds: 300000 (5 minutes).", minimum: 0),
                    "rpId": Schema.string("`--webauthn-rp-id`."),
                    "allowCredentials": Schema.array(descriptor, description: "A login's: empty, any passkey of this RP (discoverable credentials); a reauthentication's: the account's passkeys."),
                    "userVerification": Schema.constant("required"),
                    "hints": Schema.array(Schema.string()),
                ], required: ["challenge", "timeout", "rpId", "allowCredentials", "userVerification", "hints"],
                description: "WebAuthn L3 `PublicKeyCredentialRequestOptionsJSON`: give it to `PublicKeyCredential.parseRequestOptionsFromJSON()`."),
            "PasskeyRegistrationCredential": Schema.object(
                [
                    "id": base64url("The credential id (the same as `rawId`)."), "rawId": base64url("The credential id."),
                    "type": Schema.constant("public-key"),
                    "response": Schema.object(
                        [
                            "clientDataJSON": base64url("The client data, exactly as signed."),
                            "attestationObject": base64url("CBOR: `fmt` (`none`, or `packed` self-attestation), `attStmt`, `authData`."),
                            "transports": Schema.array(Schema.string()),
                        ], required: ["clientDataJSON", "attestationObject"]),
                ], required: ["id", "rawId", "type", "response"],
                description: "WebAuthn L3 `RegistrationResponseJSON` (`credential.toJSON()`); other members are ignored."),
            "PasskeyAssertionCredential": Schema.object(
                [
                    "id": base64url("The credential id (the same as `rawId`)."), "rawId": base64url("The credential id."),
                    "type": Schema.constant("public-key"),
                    "response": Schema.object(
                        [
                            "clientDataJSON": base64url("The client data, exactly as signed."),
                            "authenticatorData": base64url("The authenticator data, exactly as signed."),
                            "signature": base64url("DER for ES256, 64 bytes for EdDSA, the modulus's length for RS256."),
                            "userHandle": base64url("The user handle the passkey was made with; when given, it must be its owner's."),
                        ], required: ["clientDataJSON", "authenticatorData", "signature"]),
                ], required: ["id", "rawId", "type", "response"],
                description: "WebAuthn L3 `AuthenticationResponseJSON` (`credential.toJSON()`); other members are ignored."),
            "PasskeyRegisterRequest": StepUpSchemas.request(
                [
                    "name": Schema.string("The device's name as its owner gives it: 1–64 characters after trimming, no control characters.", minLength: 1, maxLength: 64),
                    "credential": Schema.ref("PasskeyRegistrationCredential"),
                ], required: ["name", "credential"]),
            "PasskeyLoginRequest": Schema.object(["credential": Schema.ref("PasskeyAssertionCredential")], required: ["credential"]),
            "PasskeyDeleteRequest": StepUpSchemas.request(),
            "Passkey": Schema.object(
                [
                    "id": FieldSchemas.uuid, "name": Schema.string("The device name its owner gave."),
                    "credential_id": base64url("The credential id."),
                    "algorithm": Schema.integer("The COSE algorithm: `-7` ES256, `-8` EdDSA, `-257` RS256."),
                    "backup_eligible": Schema.boolean("Whether it may be synced to the owner's other devices (fixed when made)."),
                    "backed_up": Schema.boolean("Whether it was backed up at its last use."),
                    "transports": Schema.array(Schema.string()),
                    "created_at": FieldSchemas.time,
                    "last_used_at": Schema.string("RFC 3339 time in UTC of its last login; absent before the first.", format: "date-time"),
                ], required: ["id", "name", "credential_id", "algorithm", "backup_eligible", "backed_up", "transports", "created_at"]),
            "PasskeyList": Schema.object(["passkeys": Schema.array(Schema.ref("Passkey"), description: "Oldest first.")], required: ["passkeys"]),
            "AppleAppSiteAssociation": Schema.object(
                [
                    "webcredentials": Schema.object(
                        ["apps": Schema.array(Schema.string(pattern: "^[A-Z0-9]{10}\\..+$"), description: "`--apple-app-id` values (`TEAMID.bundle.id`).")],
                        required: ["apps"])
                ], required: ["webcredentials"]),
        ]
    }
}
