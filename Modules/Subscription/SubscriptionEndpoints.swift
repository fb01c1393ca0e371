import Contracts
import Foundation
import Platform

/// `appStoreWebhook`: Apple posts `{"signedPayload": "…"}` (`signed_payload` accepted too).
struct WebhookInput: Decodable, Sendable {
    var signedPayload: String

    enum CodingKeys: String, CodingKey {
        case signedPayload
        case snake = "signed_payload"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedPayload = try container.decode(String.self, forKey: .signedPayload, alias: .snake)
    }
}

/// `syncSubscription`: StoreKit 2's `jwsRepresentation` of a transaction (`signedTransaction` accepted too).
struct SyncInput: Decodable, Sendable {
    var signedTransaction: String

    enum CodingKeys: String, CodingKey {
        case signedTransaction = "signed_transaction"
        case camel = "signedTransaction"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedTransaction = try container.decode(String.self, forKey: .signedTransaction, alias: .camel)
    }
}

struct NoInput: Decodable, Sendable {}

struct EmptyOutput: Encodable, Sendable {}

extension SubscriptionModule {
    static let statusSchema = Schema.object(
        [
            "tier": Schema.enumeration(["free", "premium"]),
            "status": Schema.enumeration(SubscriptionStatus.allCases.map(\.rawValue)),
            "is_premium": Schema.boolean,
            "expires_at": Schema.nullable(Schema.timestamp),
            "auto_renew_enabled": Schema.nullable(Schema.boolean),
            "product_id": Schema.nullable(Schema.string),
            "override": Schema.nullable(Schema.string),
            "app_account_token": Schema.string(format: "uuid"),
        ],
        required: ["tier", "status", "is_premium", "app_account_token"])

    func endpoints() -> [Endpoint] {
        let service = self.service
        return [
            .rpc(
                "getSubscriptionStatus", access: .user, tag: "Subscription", readOnly: true,
                summary: "The caller's tier, status, premium access, expiry, renewal, product, override and appAccountToken.",
                request: Schema.empty, response: Self.statusSchema, input: NoInput.self
            ) { _, call in try await service.status(userId: try call.userId()) },
            .rpc(
                "syncSubscription", access: .user, tag: "Subscription",
                summary: "Applies the client's StoreKit 2 signed transaction when it grants a positive entitlement (never a downgrade).",
                request: Schema.object(
                    ["signed_transaction": Schema.string(description: "StoreKit 2 jwsRepresentation")], required: ["signed_transaction"],
                    aliases: ["signed_transaction": "signedTransaction"]),
                response: Self.statusSchema, input: SyncInput.self
            ) { input, call in try await service.sync(userId: try call.userId(), signedTransaction: input.signedTransaction) },
            .rpc(
                "appStoreWebhook", access: .open, tag: "Subscription",
                summary:
                    "App Store Server Notifications V2: verified, applied per the notifications table; 200 for repeats, 400 when verification fails.",
                request: Schema.object(
                    ["signedPayload": Schema.string], required: ["signedPayload"], aliases: ["signedPayload": "signed_payload"]),
                response: Schema.empty,
                input: WebhookInput.self
            ) { input, _ in
                _ = try await service.receiveNotification(signedPayload: input.signedPayload)
                return EmptyOutput()
            },
        ]
    }
}
