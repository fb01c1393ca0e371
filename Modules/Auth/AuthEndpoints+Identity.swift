import Contracts
import Foundation
import Platform

struct IdentitySignInRequest: Decodable, Sendable {
    var provider: String
    var idToken: String
    var rawNonce: String?
    var authorizationCode: String?
    var name: String?
    var timeZone: String?

    enum CodingKeys: String, CodingKey {
        case provider, name
        case idToken = "id_token"
        case rawNonce = "raw_nonce"
        case authorizationCode = "authorization_code"
        case timeZone = "time_zone"
    }
}

struct ConfirmRequest: Decodable, Sendable {
    var timeZone: String?

    enum CodingKeys: String, CodingKey { case timeZone = "time_zone" }
}

struct LinkRequest: Decodable, Sendable {
    var provider: String
    var idToken: String
    var rawNonce: String?
    var authorizationCode: String?

    enum CodingKeys: String, CodingKey {
        case provider
        case idToken = "id_token"
        case rawNonce = "raw_nonce"
        case authorizationCode = "authorization_code"
    }
}

struct ProviderRequest: Decodable, Sendable {
    var provider: String
}

struct PasswordRequest: Decodable, Sendable {
    var password: String
}

struct ChangePasswordRequest: Decodable, Sendable {
    var currentPassword: String
    var newPassword: String

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

struct ReauthenticateRequest: Decodable, Sendable {
    var provider: String
    var password: String?
    var idToken: String?
    var rawNonce: String?

    enum CodingKeys: String, CodingKey {
        case provider, password
        case idToken = "id_token"
        case rawNonce = "raw_nonce"
    }
}

struct ChangeEmailRequest: Decodable, Sendable {
    var newEmail: String

    enum CodingKeys: String, CodingKey { case newEmail = "new_email" }
}

struct CodeRequest: Decodable, Sendable {
    var code: String
}

struct ResetRequest: Decodable, Sendable {
    var email: String
}

struct ResetPasswordRequest: Decodable, Sendable {
    var code: String
    var newPassword: String

    enum CodingKeys: String, CodingKey {
        case code
        case newPassword = "new_password"
    }
}

extension AuthEndpoints {
    static let providersSchema = Schema.object(
        ["providers": Schema.array(Schema.enumeration(SignInProvider.allCases.map(\.rawValue)))], required: ["providers"])
    static let identityProviderSchema = Schema.enumeration(IdentityProvider.allCases.map(\.rawValue))

    /// `reauthenticate`'s body: the password with provider `password`, the provider's `id_token` otherwise.
    static func passwordOrToken(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        let condition: JSONValue = [
            "if": ["properties": ["provider": ["const": "password"]], "required": ["provider"]],
            "then": Schema.sent("password"), "else": Schema.sent("id_token"),
        ]
        object["allOf"] = .array((object["allOf"]?.arrayValue ?? []) + [condition])
        return .object(object)
    }

    /// Google and Apple sign-in, account confirmation, linking and the recent-login operations.
    static func identity(service: AuthService) -> [Endpoint] {
        [
            .exchange(
                "signInWithIdp", access: .open, tag: tag,
                summary: "Sign in with a Google or Apple ID token: existing_user, or new_user to confirm.",
                request: Schema.object(
                    [
                        "provider": identityProviderSchema, "id_token": Schema.string(maxLength: 8192),
                        "raw_nonce": Schema.string(maxLength: 512, description: "Apple: required; its SHA-256 (hex) is the token's nonce"),
                        "authorization_code": Schema.string(maxLength: 2048), "name": Schema.string(maxLength: 100),
                        "time_zone": Schema.timeZone,
                    ], required: ["provider", "id_token"]),
                response: Schema.object(
                    [
                        "result": Schema.enumeration(["existing_user", "new_user"]), "user": userSchema, "tokens": tokensSchema,
                        "pending": Schema.object(
                            ["provider": identityProviderSchema, "email": Schema.string, "name": Schema.nullable(Schema.string)],
                            required: ["provider", "email"]),
                    ], required: ["result", "user", "tokens"]),
                input: IdentitySignInRequest.self
            ) { input, call, exchange in
                let browser = try BrowserSession.requested(by: exchange)
                let result = try await service.signInWithIdentity(
                    provider: input.provider, idToken: input.idToken, rawNonce: input.rawNonce, name: input.name, timeZone: input.timeZone,
                    authorizationCode: input.authorizationCode, clientAddress: call.clientAddress)
                return try BrowserSession.answer(result, for: browser)
            },
            .rpc(
                "confirmAccountCreation", access: .unconfirmedUser, tag: tag,
                summary: "Create the account a Google or Apple sign-in started (its profile and original provider).",
                request: Schema.object(["time_zone": Schema.timeZone]),
                response: Schema.object(["user": userSchema], required: ["user"]), input: ConfirmRequest.self
            ) { input, call in
                ["user": try await service.confirmAccountCreation(userId: try call.userId(), timeZone: input.timeZone)]
            },
            .rpc(
                "cancelAccountCreation", access: .unconfirmedUser, tag: tag,
                summary: "Drop the unconfirmed identity a Google or Apple sign-in created.",
                request: Schema.empty, response: Schema.empty, input: Empty.self
            ) { _, call in
                try await service.cancelAccountCreation(userId: try call.userId())
                return Empty()
            },
            .rpc(
                "linkProvider", access: .account, tag: tag,
                summary:
                    "Link a Google or Apple account as another way to sign in. Needs a verified email (FAILED_PRECONDITION, reason email_not_verified) and a recent sign-in.",
                request: Schema.object(
                    [
                        "provider": identityProviderSchema, "id_token": Schema.string(maxLength: 8192),
                        "raw_nonce": Schema.string(maxLength: 512),
                        "authorization_code": Schema.string(maxLength: 2048),
                    ], required: ["provider", "id_token"]),
                response: providersSchema, input: LinkRequest.self
            ) { input, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                return try await service.linkProvider(
                    principal: principal, provider: input.provider, idToken: input.idToken, rawNonce: input.rawNonce,
                    authorizationCode: input.authorizationCode)
            },
            .rpc(
                "unlinkProvider", access: .account, tag: tag, summary: "Remove a sign-in method (never the last). Needs a recent sign-in.",
                request: Schema.object(["provider": Schema.enumeration(SignInProvider.allCases.map(\.rawValue))], required: ["provider"]),
                response: providersSchema, input: ProviderRequest.self
            ) { input, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                return try await service.unlinkProvider(principal: principal, provider: input.provider)
            },
            .rpc(
                "setPassword", access: .account, tag: tag, summary: "Add a password to an account that signs in with Google or Apple only.",
                request: Schema.object(
                    ["password": Schema.string(minLength: Validation.minimumPasswordLength, maxLength: Validation.maximumPasswordLength)],
                    required: ["password"]),
                response: providersSchema, input: PasswordRequest.self
            ) { input, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                return try await service.setPassword(principal: principal, password: input.password)
            },
            .exchange(
                "changePassword", access: .account, tag: tag,
                summary: "Change the password. Needs a recent sign-in; every other session ends.",
                request: Schema.object(
                    [
                        "current_password": Schema.string,
                        "new_password": Schema.string(
                            minLength: Validation.minimumPasswordLength, maxLength: Validation.maximumPasswordLength),
                    ], required: ["current_password", "new_password"]),
                response: Schema.object(["tokens": tokensSchema], required: ["tokens"]), input: ChangePasswordRequest.self
            ) { input, call, exchange in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                let browser = try BrowserSession.requested(by: exchange)
                let result = try await service.changePassword(
                    principal: principal, currentPassword: input.currentPassword, newPassword: input.newPassword)
                return try BrowserSession.answer(result, for: browser)
            },
            .exchange(
                "reauthenticate", access: .account, tag: tag,
                summary: "Sign in again (password, Google or Apple) for a fresh auth_time before a sensitive operation.",
                request: Self.passwordOrToken(
                    Schema.object(
                        [
                            "provider": Schema.enumeration(SignInProvider.allCases.map(\.rawValue)),
                            "password": Schema.string(maxLength: Validation.maximumPasswordLength),
                            "id_token": Schema.string(maxLength: 8192), "raw_nonce": Schema.string(maxLength: 512),
                        ], required: ["provider"])),
                response: Schema.object(["tokens": tokensSchema], required: ["tokens"]), input: ReauthenticateRequest.self
            ) { input, call, exchange in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                let browser = try BrowserSession.requested(by: exchange)
                let result = try await service.reauthenticate(
                    principal: principal, provider: input.provider, password: input.password, idToken: input.idToken,
                    rawNonce: input.rawNonce,
                    clientAddress: call.clientAddress)
                return try BrowserSession.answer(result, for: browser)
            },
            .rpc(
                "changeEmail", access: .account, tag: tag,
                summary: "Send a code to a new email address (password accounts; needs a recent sign-in). applyEmailChange completes it.",
                request: Schema.object(["new_email": Schema.string(format: "email", maxLength: 254)], required: ["new_email"]),
                response: Schema.object(["verification_sent_to": Schema.string], required: ["verification_sent_to"]),
                input: ChangeEmailRequest.self
            ) { input, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                return try await service.changeEmail(principal: principal, newEmail: input.newEmail, clientAddress: call.clientAddress)
            },
            .rpc(
                "applyEmailChange", access: .open, tag: tag,
                summary:
                    "Redeem the code sent by changeEmail: the new address becomes the account's email; the old one is told. If the account's email was never verified, its Google and Apple sign-ins, devices and sessions end.",
                request: Schema.object(["code": Schema.string(maxLength: 128)], required: ["code"]),
                response: Schema.object(["email": Schema.string], required: ["email"]), input: CodeRequest.self
            ) { input, call in
                try await service.applyEmailChange(code: input.code, clientAddress: call.clientAddress)
            },
            .rpc(
                "sendPasswordReset", access: .open, tag: tag,
                summary: "Mail a password-reset code. Answers the same whether or not an account has this email.",
                request: Schema.object(["email": Schema.string(format: "email", maxLength: 254)], required: ["email"]),
                response: Schema.empty, input: ResetRequest.self
            ) { input, call in
                try await service.sendPasswordReset(email: input.email, clientAddress: call.clientAddress)
                return Empty()
            },
            .rpc(
                "resetPassword", access: .open, tag: tag,
                summary:
                    "Set a new password with a reset code (the email counts as verified). Every session of the account ends; if its email was never verified, its Google and Apple sign-ins and devices go too.",
                request: Schema.object(
                    [
                        "code": Schema.string(maxLength: 128),
                        "new_password": Schema.string(
                            minLength: Validation.minimumPasswordLength, maxLength: Validation.maximumPasswordLength),
                    ], required: ["code", "new_password"]),
                response: Schema.empty, input: ResetPasswordRequest.self
            ) { input, call in
                try await service.resetPassword(code: input.code, newPassword: input.newPassword, clientAddress: call.clientAddress)
                return Empty()
            },
            .rpc(
                "verifyEmail", access: .account, tag: tag,
                summary: "Verify the account's email with the code mailed at sign-up (or by resendEmailVerification).",
                request: Schema.object(["code": Schema.string(maxLength: 128)], required: ["code"]),
                response: Schema.object(["email_verified": Schema.boolean], required: ["email_verified"]), input: CodeRequest.self
            ) { input, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                return try await service.verifyEmail(principal: principal, code: input.code, clientAddress: call.clientAddress)
            },
            .rpc(
                "resendEmailVerification", access: .account, tag: tag,
                summary: "Mail a new email-verification code (the previous one stops working). Nothing is sent once the email is verified.",
                request: Schema.empty, response: Schema.empty, input: Empty.self
            ) { _, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                try await service.resendEmailVerification(principal: principal, clientAddress: call.clientAddress)
                return Empty()
            },
            .rpc(
                "deleteAccount", access: .account, tag: tag,
                summary: "Delete the account and every piece of the user's data (needs a recent sign-in). Sign-in stops at once.",
                request: Schema.empty, response: Schema.empty, input: Empty.self
            ) { _, call in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                try await service.deleteAccount(principal: principal)
                return Empty()
            },
        ]
    }
}
