import Contracts
import Foundation
import Hummingbird
import NIOCore
import Platform

struct SignUpRequest: Decodable, Sendable {
    var email: String
    var password: String
    var name: String?
    var timeZone: String?

    enum CodingKeys: String, CodingKey {
        case email, password, name
        case timeZone = "time_zone"
    }
}

struct SignInRequest: Decodable, Sendable {
    var email: String
    var password: String
    var timeZone: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case timeZone = "time_zone"
    }
}

struct RefreshRequest: Decodable, Sendable {
    /// nil for a browser, whose token is its cookie.
    var refreshToken: String?

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

struct SignOutRequest: Decodable, Sendable {
    var refreshToken: String?
    var allSessions: Bool?

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
        case allSessions = "all_sessions"
    }
}

struct RegisterDeviceRequest: Decodable, Sendable {
    var deviceId: String
    var platform: String
    var pushToken: String?
    var appVersion: String?

    enum CodingKeys: String, CodingKey {
        case deviceId = "device_id"
        case platform
        case pushToken = "push_token"
        case appVersion = "app_version"
    }
}

/// `updateUser`'s body: only the allow-listed fields; `userId`/`user_id` are ignored (the user comes from the
/// token); any other field — `provider` above all — is refused with INVALID_ARGUMENT.
struct UpdateUserRequest: Decodable, Sendable {
    var changes = ProfileChanges()

    init(from decoder: any Decoder) throws {
        let object = try [String: JSONValue](from: decoder)
        for (key, value) in object where !["userId", "user_id"].contains(key) {
            guard ProfileChanges.writableFields.contains(key) else {
                throw ServiceError.invalidArgument(
                    field: key, reason: "not writable",
                    message:
                        "The field '\(key)' cannot be changed. Writable fields: \(ProfileChanges.writableFields.joined(separator: ", ")).")
            }
            switch (key, value) {
            case ("week_starts_on_monday", .bool(let flag)): changes.weekStartsOnMonday = flag
            case ("week_starts_on_monday", .null): break  // null is not sent, as for every optional field
            case ("week_starts_on_monday", _):
                throw ServiceError.invalidArgument(field: key, reason: "expected boolean", message: "The field '\(key)' must be a boolean.")
            case (_, .string(let text)): changes.set(key, .some(text))
            case (_, .null): changes.set(key, .some(nil))
            default:
                throw ServiceError.invalidArgument(
                    field: key, reason: "expected string", message: "The field '\(key)' must be a string or null.")
            }
        }
    }
}

extension ProfileChanges {
    fileprivate mutating func set(_ key: String, _ value: String??) {
        switch key {
        case "name": name = value
        case "time_zone": timeZone = value
        case "weight_format": weightFormat = value
        case "height_format": heightFormat = value
        default: break
        }
    }
}

/// Auth's routes.
enum AuthEndpoints {
    static let tag = "Auth"

    /// `refresh_token` is always there for an app; a browser session (`X-Povver-Session: cookie`) gets it as an
    /// `HttpOnly` cookie instead (`BrowserSession`).
    static let tokensSchema = Schema.object(
        [
            "access_token": Schema.string,
            "refresh_token": Schema.string(description: "Absent for a browser session (X-Povver-Session: cookie): it is in the cookie."),
            "expires_in": Schema.integer, "token_type": Schema.enumeration(["Bearer"]),
        ], required: ["access_token", "expires_in", "token_type"])
    static let userSchema = Schema.object(
        [
            "id": Schema.string, "email": Schema.string(format: "email"), "name": Schema.nullable(Schema.string),
            "providers": Schema.array(Schema.enumeration(SignInProvider.allCases.map(\.rawValue))),
            "original_provider": Schema.enumeration(["email", "google.com", "apple.com"]), "email_verified": Schema.boolean,
        ], required: ["id", "email", "providers", "original_provider", "email_verified"])
    static let signInResultSchema = Schema.object(["user": userSchema, "tokens": tokensSchema], required: ["user", "tokens"])
    static let profileSchema = Schema.object(
        [
            "id": Schema.string, "email": Schema.string, "name": Schema.nullable(Schema.string),
            "provider": Schema.enumeration(["email", "google.com", "apple.com"]), "week_starts_on_monday": Schema.boolean,
            "time_zone": Schema.nullable(Schema.string),
            "weight_format": Schema.nullable(Schema.enumeration(ProfileChanges.weightFormats)),
            "height_format": Schema.nullable(Schema.enumeration(ProfileChanges.heightFormats)),
            "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ], required: ["id", "email", "provider", "week_starts_on_monday", "created_at", "updated_at"])

    static func make(service: AuthService, signingKey: SigningKey) -> [Endpoint] {
        let jwks = (try? JSONCoding.encodeToString(signingKey.jwks)) ?? #"{"keys":[]}"#
        return [
            .exchange(
                "signUp", access: .open, tag: tag,
                summary: "Create an email/password account and sign in; a code to verify the email is mailed.",
                request: Schema.object(
                    [
                        "email": Schema.string(format: "email", maxLength: 254),
                        "password": Schema.string(minLength: Validation.minimumPasswordLength, maxLength: Validation.maximumPasswordLength),
                        "name": Schema.string(maxLength: 100), "time_zone": Schema.timeZone,
                    ], required: ["email", "password"]),
                response: signInResultSchema, input: SignUpRequest.self
            ) { input, call, exchange in
                let browser = try BrowserSession.requested(by: exchange)
                let result = try await service.signUp(
                    email: input.email, password: input.password, name: input.name, timeZone: input.timeZone,
                    clientAddress: call.clientAddress)
                return try BrowserSession.answer(result, for: browser)
            },
            .exchange(
                "signIn", access: .open, tag: tag, summary: "Sign in with email and password.",
                request: Schema.object(
                    ["email": Schema.string(format: "email"), "password": Schema.string, "time_zone": Schema.timeZone],
                    required: ["email", "password"]),
                response: signInResultSchema, input: SignInRequest.self
            ) { input, call, exchange in
                let browser = try BrowserSession.requested(by: exchange)
                let result = try await service.signIn(
                    email: input.email, password: input.password, timeZone: input.timeZone, clientAddress: call.clientAddress)
                return try BrowserSession.answer(result, for: browser)
            },
            .exchange(
                "refreshToken", access: .open, tag: tag,
                summary:
                    "Swap a refresh token for new tokens. A token used twice ends its session. A browser session (X-Povver-Session: cookie) sends none: its cookie is read, and replaced.",
                request: Schema.object(["refresh_token": Schema.string]),
                response: Schema.object(["tokens": tokensSchema], required: ["tokens"]), input: RefreshRequest.self
            ) { input, _, exchange in
                let browser = try BrowserSession.requested(by: exchange)
                guard let token = input.refreshToken ?? browser?.cookieToken else {
                    throw ServiceError(.unauthenticated, "There is no session to refresh. Please sign in.")
                }
                return try BrowserSession.answer(TokensResult(tokens: try await service.refresh(refreshToken: token)), for: browser)
            },
            .exchange(
                "signOut", access: .unconfirmedUser, tag: tag,
                summary: "End this session, the session of a refresh token, or every session (a browser's cookie is removed).",
                request: Schema.object(["refresh_token": Schema.string, "all_sessions": Schema.boolean]),
                response: Schema.empty, input: SignOutRequest.self
            ) { input, call, exchange in
                guard let principal = call.principal else { throw ServiceError(.unauthenticated) }
                let browser = try BrowserSession.requested(by: exchange)
                try await service.signOut(principal: principal, refreshToken: input.refreshToken, allSessions: input.allSessions ?? false)
                return Answer(data: Empty(), headers: browser.map { [.setCookie: $0.clearing] } ?? [:])
            },
            .rpc(
                "getAccount", access: .user, tag: tag, readOnly: true, summary: "The account: email, linked providers, dates.",
                request: Schema.empty,
                response: Schema.object(
                    [
                        "user_id": Schema.string, "email": Schema.string, "email_verified": Schema.boolean,
                        "providers": Schema.array(
                            Schema.object(
                                ["provider_id": Schema.string, "email": Schema.nullable(Schema.string), "linked_at": Schema.timestamp],
                                required: ["provider_id", "linked_at"])),
                        "original_provider": Schema.string, "created_at": Schema.timestamp,
                        "last_sign_in_at": Schema.nullable(Schema.timestamp),
                    ], required: ["user_id", "email", "email_verified", "providers", "original_provider", "created_at"]),
                input: Empty.self
            ) { _, call in
                try await service.account(userId: try call.userId())
            },
            .rpc(
                "getUser", access: .user, tag: tag, readOnly: true, summary: "The user's profile.",
                request: Schema.empty, response: profileSchema, input: Empty.self
            ) { _, call in
                try await service.profile(userId: try call.userId())
            },
            .rpc(
                "updateUser", access: .user, tag: tag,
                summary: "Change allowed profile fields (name, week_starts_on_monday, time_zone, weight_format, height_format).",
                request: Schema.closed(
                    Schema.object([
                        "name": Schema.nullable(Schema.string(maxLength: 100)), "week_starts_on_monday": Schema.boolean,
                        "time_zone": Schema.timeZone,
                        "weight_format": Schema.nullable(Schema.enumeration(ProfileChanges.weightFormats)),
                        "height_format": Schema.nullable(Schema.enumeration(ProfileChanges.heightFormats)),
                        "userId": Schema.any, "user_id": Schema.any,
                    ])),
                response: profileSchema, input: UpdateUserRequest.self
            ) { input, call in
                try await service.updateProfile(userId: try call.userId(), changes: input.changes)
            },
            .rpc(
                "registerDevice", access: .user, tag: tag,
                summary: "Record one of the user's devices. Needs a verified email (FAILED_PRECONDITION, reason email_not_verified).",
                request: Schema.object(
                    [
                        "device_id": Schema.name(maxLength: 128), "platform": Schema.enumeration(["ios", "android", "web"]),
                        "push_token": Schema.name(maxLength: 4096), "app_version": Schema.name(maxLength: 64),
                    ], required: ["device_id", "platform"]),
                response: Schema.empty, input: RegisterDeviceRequest.self
            ) { input, call in
                try await service.registerDevice(
                    userId: try call.userId(), deviceId: input.deviceId, platform: input.platform, pushToken: input.pushToken,
                    appVersion: input.appVersion)
                return Empty()
            },
            .get(
                "/.well-known/jwks.json", tag: tag, summary: "Public keys of access tokens (RFC 7517).",
                response: Schema.object(["keys": Schema.array(["type": "object"])], required: ["keys"])
            ) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                    body: .init(byteBuffer: ByteBuffer(string: jwks)))
            },
        ]
    }
}
