import Crypto
import Foundation
import Platform
import SwiftASN1
import X509

/// A private certificate authority shaped like Apple's App Store signing chain — root → intermediate (with
/// Apple's intermediate marker OID) → leaf (with the leaf marker OID) — and an ES256 JWS signer that puts the
/// chain in `x5c`. Tests configure its root as the trusted one and sign notifications and transactions with it.
public struct AppStoreTestPKI: Sendable {
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// What to vary when making a chain.
    public struct Options: Sendable {
        public var name = "Povver Test"
        public var leafMarker = true
        public var intermediateMarker = true
        public var leafValidity: ClosedRange<Date> = Date(timeIntervalSinceNow: -86_400 * 365)...Date(timeIntervalSinceNow: 86_400 * 365)
        /// Sign the intermediate with this other PKI's root instead of this one's.
        public var intermediateIssuer: AppStoreTestPKI?

        public init() {}
    }

    public let rootKey: P256.Signing.PrivateKey
    public let root: Certificate
    public let intermediateKey: P256.Signing.PrivateKey
    public let intermediate: Certificate
    public let leafKey: P256.Signing.PrivateKey
    public let leaf: Certificate

    public init(_ options: Options = Options()) throws {
        let now = Date()
        let longAgo = now.addingTimeInterval(-86_400 * 3650)
        let farAhead = now.addingTimeInterval(86_400 * 3650)
        rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("\(options.name) Root CA")
            OrganizationName("Povver Tests")
        }
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: longAgo, notValidAfter: farAhead,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))

        intermediateKey = P256.Signing.PrivateKey()
        let intermediateName = try DistinguishedName {
            CommonName("\(options.name) Worldwide Developer Relations")
            OrganizationName("Povver Tests")
        }
        let issuer = options.intermediateIssuer
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: longAgo,
            notValidAfter: farAhead,
            issuer: issuer?.root.subject ?? rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                if options.intermediateMarker {
                    Certificate.Extension(oid: Self.intermediateMarkerOID, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(issuer?.rootKey ?? rootKey))

        leafKey = P256.Signing.PrivateKey()
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: options.leafValidity.lowerBound,
            notValidAfter: options.leafValidity.upperBound, issuer: intermediateName,
            subject: try DistinguishedName { CommonName("\(options.name) App Store Signing") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if options.leafMarker {
                    Certificate.Extension(oid: Self.leafMarkerOID, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: .init(intermediateKey))
    }

    public var rootDER: Data { Data(Self.derBytes(root)) }

    public var rootPEM: String { try! root.serializeAsPEM().pemString }

    public static func der(_ certificate: Certificate) -> String {
        Data(derBytes(certificate)).base64EncodedString()
    }

    public static func derBytes(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// The default `x5c`: leaf, intermediate, root.
    public var chain: [String] { [leaf, intermediate, root].map(Self.der) }

    /// A compact JWS of `payload`. `header` replaces the default `{"alg":"ES256","x5c":chain}`; `key` signs
    /// instead of the leaf's.
    public func sign(payload: [String: Any], header: [String: Any]? = nil, key: P256.Signing.PrivateKey? = nil) -> String {
        let headerJSON = try! JSONSerialization.data(withJSONObject: header ?? ["alg": "ES256", "x5c": chain], options: [.sortedKeys])
        let payloadJSON = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        let input = Self.base64URL(headerJSON) + "." + Self.base64URL(payloadJSON)
        let signature = try! (key ?? leafKey).signature(for: Data(input.utf8))
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    public static func base64URL(_ data: Data) -> String { data.base64URLEncoded() }

    // MARK: App Store payloads

    public static let bundleID = "com.povver.app"
    public static let appAppleID: Int64 = 1_234_567_890

    /// A `JWSTransactionDecodedPayload`.
    public static func transaction(
        originalTransactionId: String, appAccountToken: String?, expires: Date, signedDate: Date = Date(), offerType: Int? = nil,
        revoked: Date? = nil, productId: String = "povver.premium.monthly", bundleId: String = bundleID, environment: String = "Sandbox"
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": "\(originalTransactionId)-\(Int(signedDate.timeIntervalSince1970 * 1000))",
            "originalTransactionId": originalTransactionId, "bundleId": bundleId, "productId": productId,
            "purchaseDate": milliseconds(signedDate.addingTimeInterval(-60)),
            "originalPurchaseDate": milliseconds(signedDate.addingTimeInterval(-60)),
            "expiresDate": milliseconds(expires), "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "environment": environment, "signedDate": milliseconds(signedDate),
        ]
        if let appAccountToken { payload["appAccountToken"] = appAccountToken }
        if let offerType { payload["offerType"] = offerType }
        if let revoked { payload["revocationDate"] = milliseconds(revoked) }
        return payload
    }

    /// A `JWSRenewalInfoDecodedPayload`.
    public static func renewal(
        originalTransactionId: String, autoRenew: Bool, signedDate: Date = Date(), gracePeriodExpires: Date? = nil,
        environment: String = "Sandbox"
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "originalTransactionId": originalTransactionId, "autoRenewProductId": "povver.premium.monthly",
            "productId": "povver.premium.monthly",
            "autoRenewStatus": autoRenew ? 1 : 0, "environment": environment, "signedDate": milliseconds(signedDate),
        ]
        if let gracePeriodExpires { payload["gracePeriodExpiresDate"] = milliseconds(gracePeriodExpires) }
        return payload
    }

    /// A signed V2 notification whose nested transaction and renewal info are signed by this PKI too (unless
    /// given already signed).
    public func notification(
        type: String, subtype: String? = nil, uuid: String = UUID().uuidString.lowercased(), signedDate: Date = Date(),
        transaction: [String: Any]?, renewal: [String: Any]? = nil, signedTransaction: String? = nil,
        bundleId: String = bundleID, environment: String = "Sandbox", appAppleId: Int64? = appAppleID
    ) -> String {
        sign(
            payload: Self.notificationPayload(
                type: type, subtype: subtype, uuid: uuid, signedDate: signedDate,
                signedTransaction: signedTransaction ?? transaction.map { sign(payload: $0) },
                signedRenewal: renewal.map { sign(payload: $0) },
                bundleId: bundleId, environment: environment, appAppleId: appAppleId))
    }

    public static func notificationPayload(
        type: String, subtype: String?, uuid: String, signedDate: Date, signedTransaction: String?, signedRenewal: String?,
        bundleId: String = bundleID, environment: String = "Sandbox", appAppleId: Int64? = appAppleID
    ) -> [String: Any] {
        var data: [String: Any] = ["bundleId": bundleId, "environment": environment, "bundleVersion": "1.0"]
        if let appAppleId { data["appAppleId"] = appAppleId }
        if let signedTransaction { data["signedTransactionInfo"] = signedTransaction }
        if let signedRenewal { data["signedRenewalInfo"] = signedRenewal }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": milliseconds(signedDate), "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        return payload
    }

    public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
