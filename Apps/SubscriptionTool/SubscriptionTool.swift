import Contracts
import Foundation
import Logging
import Platform
import Subscription
import X509

/// `povver-subscription`: overrides, status, the audit trail, and verifying signed App Store data, on a
/// composition with Subscription and a provider of `AccountDirectory` (the server's database, trusted roots and
/// app identity). Each command returns the text to print.
public struct SubscriptionTool: Sendable {
    let subscription: SubscriptionModule
    let accounts: any AccountDirectory

    /// Works on `composition`, which must hold Subscription and an `AccountDirectory` (the CLI's
    /// `AdminComposition`, or a test's server).
    public init(composition: Composition) throws {
        self.subscription = try composition.module(SubscriptionModule.self)
        self.accounts = try composition.require(Contract.accountDirectory)
    }

    var service: SubscriptionService { subscription.service }

    /// Refuses ids that name no account, so a typo cannot grant premium to nobody.
    func requireAccount(_ userId: String) async throws {
        guard try await accounts.account(userId: userId) != nil else {
            throw ServiceError(.notFound, "No account with id \(userId).")
        }
    }

    public func setOverride(userId: String, premium: Bool) async throws -> String {
        try await requireAccount(userId)
        let state = try await service.setOverride(userId: userId, override: premium ? "premium" : nil)
        return "override \(premium ? "set to premium" : "cleared") for \(userId); is_premium: \(state.isPremium)\n"
    }

    public func status(userId: String) async throws -> String {
        try await requireAccount(userId)
        let state = try await service.status(userId: userId)
        // The product and transaction ids came in a webhook or a client's sync.
        let shown = { (text: String?) in text.map { TerminalText.escaped($0) } ?? "-" }
        return """
            user:                    \(shown(state.userId))
            tier:                    \(state.tier.rawValue)
            status:                  \(state.status.rawValue)
            is premium:              \(state.isPremium)
            expires:                 \(state.expiresAt?.rfc3339 ?? "-")
            auto-renew:              \(state.autoRenewEnabled.map { $0 ? "on" : "off" } ?? "-")
            product:                 \(shown(state.productId))
            original transaction:    \(shown(state.originalTransactionId))
            override:                \(shown(state.override))
            app account token:       \(shown(state.appAccountToken))
            updated:                 \(state.updatedAt.rfc3339)

            """
    }

    public func events(userId: String, limit: Int) async throws -> String {
        let events = try await service.events(userId: userId, limit: limit)
        return TextTable.render(
            ["received", "source", "type", "subtype", "signed", "outcome", "status", "tier", "notification"],
            events.map {
                [
                    $0.receivedAt.rfc3339, $0.source, $0.notificationType ?? "-", $0.subtype ?? "-", $0.signedDate?.rfc3339 ?? "-",
                    $0.outcome.rawValue,
                    $0.statusAfter ?? "-", $0.tierAfter ?? "-", $0.notificationUUID ?? "-",
                ]
            })
    }

    /// Verifies a notification's `signedPayload` (or the whole webhook body, or a signed transaction) and prints
    /// it with the nested signed data decoded. Throws with the failed check's reason.
    public func verify(_ input: String) async throws -> String {
        var jws = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if jws.hasPrefix("{"), let body = try? JSONSerialization.jsonObject(with: Data(jws.utf8)) as? [String: Any],
            let signed = (body["signedPayload"] ?? body["signed_payload"] ?? body["signed_transaction"]) as? String
        {
            jws = signed
        }
        let verifier = service.verifier
        do {
            let verified = try await verifier.signatures.verify(jws)
            guard var document = try JSONSerialization.jsonObject(with: verified.payload) as? [String: Any] else {
                throw ServiceError(.invalidArgument, "The payload is not a JSON object.")
            }
            let kind: String
            if document["notificationUUID"] != nil {
                let notification = try await verifier.verifyNotification(jws)
                kind = "App Store Server Notification V2"
                if var data = document["data"] as? [String: Any] {
                    if let transaction = notification.transaction { data["signedTransactionInfo"] = try Self.object(transaction) }
                    if let renewal = notification.renewal { data["signedRenewalInfo"] = try Self.object(renewal) }
                    document["data"] = data
                }
            } else if document["transactionId"] != nil {
                _ = try await verifier.verifyTransaction(jws)
                kind = "signed transaction"
            } else {
                _ = try await verifier.verifyRenewalInfo(jws)
                kind = "signed renewal info"
            }
            let chain = verified.chain.map { "  \(TerminalText.escaped("\($0.subject)"))" }.joined(separator: "\n")
            let pretty = try JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            // JSON escapes C0 controls in strings, not C1 ones (U+009B is a CSI on some terminals) nor bidi controls.
            let printed = TerminalText.escaped(String(decoding: pretty, as: UTF8.self), keepingLines: true)
            return "verified: \(kind), signed \(verified.signedDate.rfc3339)\nchain:\n\(chain)\n\(printed)\n"
        } catch let error as AppStoreVerificationError {
            throw ServiceError(.invalidArgument, "Not verified: \(error.description).", details: ["reason": error.reason])
        }
    }

    private static func object(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
    }
}
