import Crypto
import Foundation
import Platform
import Subscription
import TestSupport
import Testing
import X509

/// The attack matrix of issue 5: everything Apple's own verifier refuses is refused, with its reason.
@Suite struct SignedDataVerifierTests {
    static let identity = AppStoreAppIdentity(
        bundleID: AppStoreTestPKI.bundleID, appAppleID: AppStoreTestPKI.appAppleID, environment: "Sandbox")
    let pki: AppStoreTestPKI
    let verifier: AppStoreDataVerifier

    init() throws {
        pki = try AppStoreTestPKI()
        verifier = AppStoreDataVerifier(roots: [pki.root], identity: Self.identity)
    }

    func transaction(signedDate: Date = Date(), environment: String = "Sandbox", bundleId: String = AppStoreTestPKI.bundleID) -> [String:
        Any]
    {
        AppStoreTestPKI.transaction(
            originalTransactionId: "1000", appAccountToken: "86d75f46-acac-529c-be02-ab0820713376",
            expires: Date().addingTimeInterval(86_400),
            signedDate: signedDate, bundleId: bundleId, environment: environment)
    }

    func expectRefused(
        _ jws: String, _ expected: AppStoreVerificationError, verifier: AppStoreDataVerifier? = nil, _ comment: Comment? = nil
    ) async {
        do {
            _ = try await (verifier ?? self.verifier).verifyNotification(jws)
            Issue.record("accepted, expected \(expected)", sourceLocation: .__here())
        } catch {
            #expect(error == expected, comment)
        }
    }

    @Test func acceptsAGoodNotificationWithItsNestedData() async throws {
        let signed = pki.notification(
            type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: transaction(),
            renewal: AppStoreTestPKI.renewal(originalTransactionId: "1000", autoRenew: true))
        let notification = try await verifier.verifyNotification(signed)
        #expect(notification.payload.notificationType == "SUBSCRIBED")
        #expect(notification.payload.subtype == "INITIAL_BUY")
        #expect(notification.transaction?.originalTransactionId == "1000")
        #expect(notification.renewal?.autoRenewStatus == 1)
        #expect(notification.appAccountToken == "86d75f46-acac-529c-be02-ab0820713376")
        // A PEM copy of the root works as well as the DER one.
        let fromPEM = AppStoreDataVerifier(roots: try AppStoreTrustedRoots.parse(Data(pki.rootPEM.utf8)), identity: Self.identity)
        #expect(try await fromPEM.verifyNotification(signed).payload.notificationUUID == notification.payload.notificationUUID)
    }

    @Test func refusesAChainUnderAnotherRoot() async throws {
        let stranger = try AppStoreTestPKI()
        await expectRefused(stranger.notification(type: "DID_RENEW", transaction: transaction()), .untrustedChain)
    }

    /// `x5c[2]` is the trusted root, but the intermediate was signed by another root: the presented root
    /// vouches for nothing by being there.
    @Test func refusesATrustedRootPresentedOverAnotherRootsChain() async throws {
        let other = try AppStoreTestPKI()
        var options = AppStoreTestPKI.Options()
        options.name = "Povver Test"
        options.intermediateIssuer = other
        let forged = try AppStoreTestPKI(options)
        let payload = AppStoreTestPKI.notificationPayload(
            type: "DID_RENEW", subtype: nil, uuid: UUID().uuidString, signedDate: Date(),
            signedTransaction: pki.sign(payload: transaction()),
            signedRenewal: nil)
        let header: [String: Any] = ["alg": "ES256", "x5c": [forged.leaf, forged.intermediate, pki.root].map(AppStoreTestPKI.der)]
        await expectRefused(forged.sign(payload: payload, header: header), .untrustedChain)
        // Nor can the trusted root be put in as the intermediate to shortcut the chain.
        let shortcut: [String: Any] = ["alg": "ES256", "x5c": [pki.leaf, pki.root, pki.root].map(AppStoreTestPKI.der)]
        await expectRefused(pki.sign(payload: payload, header: shortcut), .missingMarker("intermediate"))
    }

    @Test func refusesAnExpiredLeafButAcceptsOneValidAtSignedDate() async throws {
        var options = AppStoreTestPKI.Options()
        let lapsed = Date().addingTimeInterval(-86_400 * 30)
        options.leafValidity = Date().addingTimeInterval(-86_400 * 400)...lapsed
        let old = try AppStoreTestPKI(options)
        let oldVerifier = AppStoreDataVerifier(roots: [old.root], identity: Self.identity)
        // Signed now, after the leaf lapsed: refused.
        let signedNow = old.notification(type: "DID_RENEW", transaction: transaction())
        await expectRefused(signedNow, .certificateNotValidAtSignedDate, verifier: oldVerifier)
        // Signed while the leaf was valid (and delivered late): accepted, as Apple's verifier does.
        let signedThen = lapsed.addingTimeInterval(-86_400)
        let late = old.notification(type: "DID_RENEW", signedDate: signedThen, transaction: transaction(signedDate: signedThen))
        #expect(try await oldVerifier.verifyNotification(late).payload.notificationType == "DID_RENEW")
        // The chain, now validated once, still does not vouch for data signed after the leaf lapsed.
        await expectRefused(
            old.notification(type: "DID_RENEW", transaction: transaction()), .certificateNotValidAtSignedDate, verifier: oldVerifier)
    }

    @Test func refusesMissingAppleMarkers() async throws {
        var noLeaf = AppStoreTestPKI.Options()
        noLeaf.leafMarker = false
        let leafless = try AppStoreTestPKI(noLeaf)
        await expectRefused(
            leafless.notification(type: "DID_RENEW", transaction: transaction()), .missingMarker("leaf"),
            verifier: AppStoreDataVerifier(roots: [leafless.root], identity: Self.identity))
        var noIntermediate = AppStoreTestPKI.Options()
        noIntermediate.intermediateMarker = false
        let bare = try AppStoreTestPKI(noIntermediate)
        await expectRefused(
            bare.notification(type: "DID_RENEW", transaction: transaction()), .missingMarker("intermediate"),
            verifier: AppStoreDataVerifier(roots: [bare.root], identity: Self.identity))
    }

    @Test func refusesATamperedPayload() async throws {
        let signed = pki.notification(type: "EXPIRED", transaction: transaction())
        // Verified once first, so the tampered copy meets a chain already known to be good.
        _ = try await verifier.verifyNotification(signed)
        let parts = signed.split(separator: ".").map(String.init)
        let bytes = try #require(Data(base64URLEncoded: parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        payload["notificationType"] = "DID_RENEW"
        let tampered = [parts[0], AppStoreTestPKI.base64URL(try JSONSerialization.data(withJSONObject: payload)), parts[2]].joined(
            separator: ".")
        await expectRefused(tampered, .invalidSignature)
    }

    @Test func refusesASignatureByAnotherKey() async throws {
        let payload = AppStoreTestPKI.notificationPayload(
            type: "DID_RENEW", subtype: nil, uuid: "u", signedDate: Date(), signedTransaction: pki.sign(payload: transaction()),
            signedRenewal: nil)
        await expectRefused(pki.sign(payload: payload, key: P256.Signing.PrivateKey()), .invalidSignature)
        await expectRefused(
            pki.sign(payload: payload, key: pki.intermediateKey), .invalidSignature, "the intermediate's key is not the signer")
    }

    @Test func refusesOtherAlgorithmsAndChainShapes() async throws {
        let payload = AppStoreTestPKI.notificationPayload(
            type: "DID_RENEW", subtype: nil, uuid: "u", signedDate: Date(), signedTransaction: pki.sign(payload: transaction()),
            signedRenewal: nil)
        let payloadPart = AppStoreTestPKI.base64URL(try JSONSerialization.data(withJSONObject: payload))
        func compact(_ header: [String: Any], signature: String) throws -> String {
            AppStoreTestPKI.base64URL(try JSONSerialization.data(withJSONObject: header)) + "." + payloadPart + "." + signature
        }
        // alg none: no signature at all.
        await expectRefused(try compact(["alg": "none", "x5c": pki.chain], signature: ""), .unsupportedAlgorithm)
        // HS256 keyed with the leaf's public key (the classic confusion attack).
        let headerPart = AppStoreTestPKI.base64URL(try JSONSerialization.data(withJSONObject: ["alg": "HS256", "x5c": pki.chain]))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data((headerPart + "." + payloadPart).utf8), using: SymmetricKey(data: pki.leafKey.publicKey.derRepresentation))
        await expectRefused(headerPart + "." + payloadPart + "." + AppStoreTestPKI.base64URL(Data(mac)), .unsupportedAlgorithm)
        await expectRefused(pki.sign(payload: payload, header: ["alg": "ES256"]), .missingCertificateChain)
        await expectRefused(pki.sign(payload: payload, header: ["alg": "ES256", "x5c": Array(pki.chain.prefix(2))]), .wrongChainLength(2))
        await expectRefused(pki.sign(payload: payload, header: ["alg": "ES256", "x5c": pki.chain + [pki.chain[2]]]), .wrongChainLength(4))
        await expectRefused(
            pki.sign(payload: payload, header: ["alg": "ES256", "x5c": ["bm90IGEgY2VydA==", pki.chain[1], pki.chain[2]]]),
            .malformedCertificate)
        await expectRefused("not.a.jws.at-all", .malformed("not a compact JWS"))
        await expectRefused("", .malformed("not a compact JWS"))
    }

    /// App Review and TestFlight buy in the Sandbox against the production server: Production accepts Sandbox data
    /// (notifications, transactions, renewal info) unless turned off; Sandbox never accepts Production data.
    @Test func productionAcceptsSandboxPurchasesUnlessTurnedOff() async throws {
        let identity = AppStoreAppIdentity(
            bundleID: AppStoreTestPKI.bundleID, appAppleID: AppStoreTestPKI.appAppleID, environment: "Production")
        let production = AppStoreDataVerifier(roots: [pki.root], identity: identity)
        let sandboxNotification = pki.notification(type: "DID_RENEW", transaction: transaction(), environment: "Sandbox", appAppleId: nil)
        #expect(try await production.verifyNotification(sandboxNotification).transaction?.environment == "Sandbox")
        #expect(try await production.verifyTransaction(pki.sign(payload: transaction())).environment == "Sandbox")
        var strict = identity
        strict.acceptsSandbox = false
        let strictVerifier = AppStoreDataVerifier(roots: [pki.root], identity: strict)
        await expectRefused(sandboxNotification, .environmentMismatch, verifier: strictVerifier)
        do {
            _ = try await strictVerifier.verifyTransaction(pki.sign(payload: transaction()))
            Issue.record("a Sandbox transaction was accepted with Sandbox turned off")
        } catch {
            #expect(error == .environmentMismatch)
        }
    }

    @Test func refusesAnotherAppOrEnvironment() async throws {
        await expectRefused(pki.notification(type: "DID_RENEW", transaction: transaction(), bundleId: "com.other.app"), .bundleIDMismatch)
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: transaction(), environment: "Production"), .environmentMismatch)
        // The app Apple id is checked in Production (Sandbox notifications may omit it).
        let production = AppStoreDataVerifier(
            roots: [pki.root],
            identity: AppStoreAppIdentity(
                bundleID: AppStoreTestPKI.bundleID, appAppleID: AppStoreTestPKI.appAppleID, environment: "Production"))
        let prodTransaction = transaction(environment: "Production")
        #expect(
            try await production.verifyNotification(
                pki.notification(type: "DID_RENEW", transaction: prodTransaction, environment: "Production")
            )
            .payload.notificationType == "DID_RENEW")
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: prodTransaction, environment: "Production", appAppleId: 42),
            .appAppleIDMismatch,
            verifier: production)
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: prodTransaction, environment: "Production", appAppleId: nil),
            .appAppleIDMismatch,
            verifier: production)
        // Nothing is accepted without an app identity configured.
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: transaction()), .notConfigured,
            verifier: AppStoreDataVerifier(roots: [pki.root], identity: nil))
    }

    /// The nested transaction is verified like the outer payload: re-signing it elsewhere or editing it fails.
    @Test func refusesATamperedNestedTransaction() async throws {
        let good = pki.sign(payload: transaction())
        let parts = good.split(separator: ".").map(String.init)
        var claims = transaction()
        claims["expiresDate"] = AppStoreTestPKI.milliseconds(Date().addingTimeInterval(86_400 * 3650))
        let edited = [parts[0], AppStoreTestPKI.base64URL(try JSONSerialization.data(withJSONObject: claims)), parts[2]].joined(
            separator: ".")
        await expectRefused(pki.notification(type: "DID_RENEW", transaction: nil, signedTransaction: edited), .invalidSignature)
        let stranger = try AppStoreTestPKI()
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: nil, signedTransaction: stranger.sign(payload: transaction())), .untrustedChain
        )
        await expectRefused(
            pki.notification(type: "DID_RENEW", transaction: transaction(bundleId: "com.other.app")), .bundleIDMismatch)
        await expectRefused(
            pki.notification(
                type: "DID_RENEW", transaction: transaction(),
                renewal: AppStoreTestPKI.renewal(originalTransactionId: "2000", autoRenew: true)),
            .inconsistentNestedData("the transaction and renewal info name different original transactions"))
    }

    /// With no roots configured only Apple Root CA - G3 is trusted (pinned by fingerprint), so a test PKI's chain
    /// is refused.
    @Test func bundledRootIsExactlyAppleRootCAG3() async throws {
        let roots = try AppStoreTrustedRoots.load(paths: [])
        #expect(roots.count == 1)
        let der = AppStoreTestPKI.derBytes(try #require(roots.first))
        let fingerprint = SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(fingerprint == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        #expect(roots[0].subject.description.contains("Apple Root CA - G3"))
        let bundled = AppStoreDataVerifier(roots: roots, identity: Self.identity)
        await expectRefused(pki.notification(type: "DID_RENEW", transaction: transaction()), .untrustedChain, verifier: bundled)
    }

    @Test func unreadableRootFilesAreAConfigurationError() throws {
        #expect(throws: (any Error).self) { try AppStoreTrustedRoots.load(paths: ["/no/such/root.der"]) }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString).der")
        try Data("not a certificate".utf8).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        #expect(throws: (any Error).self) { try AppStoreTrustedRoots.load(paths: [garbage.path]) }
    }
}
