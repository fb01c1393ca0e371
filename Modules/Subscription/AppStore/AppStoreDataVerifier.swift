import Foundation
import X509

/// The app signed App Store data must be about (`POVVER_APPSTORE_*`).
public struct AppStoreAppIdentity: Sendable, Equatable {
    public var bundleID: String
    /// Required in Production, where Apple's library requires it too.
    public var appAppleID: Int64?
    /// `Production` or `Sandbox`.
    public var environment: String
    /// In Production, whether Sandbox data is accepted too (App Review and TestFlight purchase in the Sandbox against
    /// the production server, as Apple advises to accept); Sandbox never accepts Production data.
    public var acceptsSandbox: Bool

    public init(bundleID: String, appAppleID: Int64?, environment: String, acceptsSandbox: Bool = true) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
        self.acceptsSandbox = acceptsSandbox
    }

    /// Whether data signed for `dataEnvironment` is for this server.
    func accepts(_ dataEnvironment: String?) -> Bool {
        dataEnvironment == environment || (environment == "Production" && acceptsSandbox && dataEnvironment == "Sandbox")
    }
}

/// Verifies notifications, transactions and renewal info end to end: signature and chain
/// (`AppStoreSignedDataVerifier`), then the app identity, then any nested signed data the same way.
public struct AppStoreDataVerifier: Sendable {
    public let signatures: AppStoreSignedDataVerifier
    /// nil when `POVVER_APPSTORE_BUNDLE_ID` is unset: everything is refused as `notConfigured`.
    public let identity: AppStoreAppIdentity?

    public init(roots: [Certificate], identity: AppStoreAppIdentity?) {
        self.signatures = AppStoreSignedDataVerifier(roots: roots)
        self.identity = identity
    }

    /// A V2 notification's `signedPayload`, with `signedTransactionInfo` and `signedRenewalInfo` verified too.
    public func verifyNotification(_ signedPayload: String) async throws(AppStoreVerificationError) -> VerifiedNotification {
        let identity = try configuredIdentity()
        let payload: NotificationPayload = try await decode(signedPayload)
        let bundleID = payload.data?.bundleId ?? payload.summary?.bundleId
        let environment = payload.data?.environment ?? payload.summary?.environment
        let appAppleID = payload.data?.appAppleId ?? payload.summary?.appAppleId
        guard bundleID == identity.bundleID else { throw .bundleIDMismatch }
        guard identity.accepts(environment) else { throw .environmentMismatch }
        // Production data names the app's Apple id (Sandbox data may omit it).
        if environment == "Production" {
            guard appAppleID == identity.appAppleID else { throw .appAppleIDMismatch }
        }
        var notification = VerifiedNotification(payload: payload)
        if let signed = payload.data?.signedTransactionInfo {
            notification.transaction = try await verifyTransaction(signed)
        }
        if let signed = payload.data?.signedRenewalInfo {
            notification.renewal = try await verifyRenewalInfo(signed)
        }
        if let transaction = notification.transaction, let renewal = notification.renewal,
            let first = transaction.originalTransactionId, let second = renewal.originalTransactionId, first != second
        {
            throw .inconsistentNestedData("the transaction and renewal info name different original transactions")
        }
        return notification
    }

    /// A signed transaction (nested in a notification, or StoreKit 2's `jwsRepresentation` from the client).
    public func verifyTransaction(_ jws: String) async throws(AppStoreVerificationError) -> TransactionInfo {
        let identity = try configuredIdentity()
        let transaction: TransactionInfo = try await decode(jws)
        guard transaction.bundleId == identity.bundleID else { throw .bundleIDMismatch }
        guard identity.accepts(transaction.environment) else { throw .environmentMismatch }
        return transaction
    }

    /// Signed renewal info (it carries no bundle id; its environment is checked).
    public func verifyRenewalInfo(_ jws: String) async throws(AppStoreVerificationError) -> RenewalInfo {
        let identity = try configuredIdentity()
        let renewal: RenewalInfo = try await decode(jws)
        guard identity.accepts(renewal.environment) else { throw .environmentMismatch }
        return renewal
    }

    private func configuredIdentity() throws(AppStoreVerificationError) -> AppStoreAppIdentity {
        guard let identity else { throw .notConfigured }
        return identity
    }

    private func decode<T: Decodable>(_ jws: String) async throws(AppStoreVerificationError) -> T {
        let verified = try await signatures.verify(jws)
        do {
            return try JSONDecoder().decode(T.self, from: verified.payload)
        } catch {
            throw .malformed("the payload lacks a required field or has a wrong type")
        }
    }
}
