import Foundation
import Platform

/// Subscription's own settings (`POVVER_APPSTORE_*`), read from the environment. A bad value throws
/// `INVALID_ARGUMENT` naming the variable.
public struct SubscriptionSettings: Sendable {
    /// The app's bundle id; none: the webhook and sync refuse everything with `FAILED_PRECONDITION`.
    public var bundleID: String?
    public var appAppleID: Int64?
    /// `Production` or `Sandbox`.
    public var environment: String
    /// Trusted App Store roots (files); none: the bundled Apple Root CA - G3.
    public var rootCertificateFiles: [String]
    /// How long past `expires_at` premium stands without a renewal before it lapses (`POVVER_PREMIUM_LAPSE_GRACE_HOURS`,
    /// 72): Apple retries notifications for days, and renewals land around expiry.
    public var lapseGrace: TimeInterval
    /// In Production, whether Sandbox purchases are accepted (`POVVER_APPSTORE_ACCEPT_SANDBOX`, `on`): App Review and
    /// TestFlight buy in the Sandbox against the production server.
    public var acceptsSandbox: Bool
    /// The products that grant premium (`POVVER_APPSTORE_PRODUCT_IDS`); nil (unset): any product of the app.
    public var productIDs: Set<String>?
    public static let defaultLapseGrace: TimeInterval = 72 * 3600

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        bundleID = reader.value("POVVER_APPSTORE_BUNDLE_ID")
        self.environment = try reader.choice("POVVER_APPSTORE_ENVIRONMENT", default: "Production", allowed: ["Production", "Sandbox"])
        rootCertificateFiles = reader.list("POVVER_APPSTORE_ROOT_CERTS")
        acceptsSandbox = try reader.choice("POVVER_APPSTORE_ACCEPT_SANDBOX", default: "on", allowed: ["on", "off"]) == "on"
        let products = reader.list("POVVER_APPSTORE_PRODUCT_IDS")
        productIDs = products.isEmpty ? nil : Set(products)
        lapseGrace = TimeInterval(try reader.integer("POVVER_PREMIUM_LAPSE_GRACE_HOURS", default: 72, range: 0...2160)) * 3600
        if let raw = reader.value("POVVER_APPSTORE_APP_APPLE_ID") {
            guard let number = Int64(raw), number > 0 else {
                throw EnvironmentReader.invalid(
                    "POVVER_APPSTORE_APP_APPLE_ID", "POVVER_APPSTORE_APP_APPLE_ID must be the app's numeric Apple id.")
            }
            appAppleID = number
        }
        if bundleID != nil, self.environment == "Production", appAppleID == nil {
            throw EnvironmentReader.invalid(
                "POVVER_APPSTORE_APP_APPLE_ID", "POVVER_APPSTORE_APP_APPLE_ID is required in the Production environment.")
        }
    }

    /// The verifier these settings describe: the configured roots (or the bundled Apple Root CA - G3) and the app
    /// identity (none without a bundle id: everything signed is then refused). An unreadable root stops the start.
    public func verifier() throws -> AppStoreDataVerifier {
        let roots = try AppStoreTrustedRoots.load(paths: rootCertificateFiles)
        guard let bundleID else { return AppStoreDataVerifier(roots: roots, identity: nil) }
        return AppStoreDataVerifier(
            roots: roots,
            identity: AppStoreAppIdentity(
                bundleID: bundleID, appAppleID: appAppleID, environment: environment, acceptsSandbox: acceptsSandbox))
    }
}
