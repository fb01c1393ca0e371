import Foundation

/// App Store Server Notifications V2 `ResponseBodyV2DecodedPayload`: the fields this server reads.
/// Dates are milliseconds since 1970, as Apple sends them.
public struct NotificationPayload: Codable, Sendable, Equatable {
    public struct AppData: Codable, Sendable, Equatable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var bundleVersion: String?
        public var environment: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public var status: Int?
    }

    /// Present instead of `data` for summary notifications (e.g. `RENEWAL_EXTENSION` / `SUMMARY`).
    public struct Summary: Codable, Sendable, Equatable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var environment: String?
    }

    public var notificationType: String
    public var subtype: String?
    public var notificationUUID: String
    public var version: String?
    public var signedDate: Int64
    public var data: AppData?
    public var summary: Summary?
}

/// `JWSTransactionDecodedPayload`: a StoreKit 2 / App Store signed transaction.
public struct TransactionInfo: Codable, Sendable, Equatable {
    public var transactionId: String?
    public var originalTransactionId: String?
    public var bundleId: String?
    public var productId: String?
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var expiresDate: Int64?
    public var type: String?
    public var appAccountToken: String?
    public var environment: String?
    public var signedDate: Int64
    /// 1 introductory offer (the seeds' trial), 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    public var revocationDate: Int64?
    public var revocationReason: Int?
    public var inAppOwnershipType: String?
}

/// `JWSRenewalInfoDecodedPayload`: the subscription's renewal state.
public struct RenewalInfo: Codable, Sendable, Equatable {
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// 1 on, 0 off.
    public var autoRenewStatus: Int?
    public var environment: String?
    public var signedDate: Int64
    public var gracePeriodExpiresDate: Int64?
    public var isInBillingRetryPeriod: Bool?
    public var expirationIntent: Int?
    public var offerType: Int?
}

/// A notification whose signature, chain and app identity were checked, with its nested signed data checked
/// the same way and decoded.
public struct VerifiedNotification: Codable, Sendable, Equatable {
    public var payload: NotificationPayload
    public var transaction: TransactionInfo?
    public var renewal: RenewalInfo?

    /// The subscription the notification is about.
    public var originalTransactionId: String? { transaction?.originalTransactionId ?? renewal?.originalTransactionId }
    /// The purchaser's `appAccountToken` (lowercased), if the purchase carried one (an empty one is none).
    public var appAccountToken: String? {
        guard let token = transaction?.appAccountToken?.trimmingCharacters(in: .whitespaces), !token.isEmpty else { return nil }
        return token.lowercased()
    }
}
