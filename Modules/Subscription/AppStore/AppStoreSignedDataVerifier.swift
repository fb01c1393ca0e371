import Crypto
import Foundation
import Platform
import SwiftASN1
import Synchronization
// The chain is judged at the payload's signed date, as Apple's own verifier does (not at the time of the call).
@_spi(FixedExpiryValidationTime) import X509

/// Verifies App Store signed data (compact JWS with an `x5c` header), as Apple's App Store Server Library does:
///
/// 1. header `alg` exactly `ES256`, `x5c` exactly three base64 DER certificates;
/// 2. a chain from `x5c[0]` (leaf) through `x5c[1]` (intermediate) to one of the **trusted roots** — `x5c[2]`
///    is never trusted by itself, only the configured roots are;
/// 3. Apple's marker extensions: `1.2.840.113635.100.6.11.1` on the leaf, `1.2.840.113635.100.6.2.1` on the
///    intermediate;
/// 4. every certificate valid at the payload's `signedDate` (RFC 5280 path rules, CA basic constraints);
/// 5. the ES256 signature over `header.payload` by the leaf's P-256 key.
///
/// The app-identity checks (bundle id, environment, app Apple id) are the callers' (`AppStorePayloadVerifier`).
public struct AppStoreSignedDataVerifier: Sendable {
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// The trusted roots chains must end in.
    public let roots: [Certificate]
    /// Chains already validated, with the window their certificates are all valid in (Apple signs with few leaves).
    private let validated = ValidatedChains()

    public init(roots: [Certificate]) {
        self.roots = roots
    }

    /// A verified JWS: its payload bytes and the chain that vouched for it.
    public struct Verified: Sendable {
        public var payload: Data
        public var signedDate: Date
        public var chain: [Certificate]
    }

    /// Verifies `jws` and answers its payload. Throws `AppStoreVerificationError` naming the first check that failed.
    public func verify(_ jws: String) async throws(AppStoreVerificationError) -> Verified {
        let text = Array(jws.utf8)
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Data(base64URLEncodedBytes: parts[0]),
            let payload = Data(base64URLEncodedBytes: parts[1]), let signatureBytes = Data(base64URLEncodedBytes: parts[2])
        else { throw .malformed("not a compact JWS") }
        guard let header = try? JSONSerialization.jsonObject(with: headerBytes) as? [String: Any] else {
            throw .malformed("the header is not a JSON object")
        }
        guard header["alg"] as? String == "ES256" else { throw .unsupportedAlgorithm }
        // No extension header is understood, so none may be required of us (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw .malformed("the header lists critical extensions") }
        guard let x5c = header["x5c"] as? [String] else { throw .missingCertificateChain }
        guard x5c.count == 3 else { throw .wrongChainLength(x5c.count) }
        guard let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw .malformed("the payload is not a JSON object")
        }
        guard let signedMilliseconds = (claims["signedDate"] as? NSNumber)?.int64Value else {
            throw .malformed("the payload has no signedDate")
        }
        let signedDate = Date(millisecondsSince1970: signedMilliseconds)

        let chainKey = x5c.joined(separator: ".")
        let chain: ValidatedChains.Entry
        if let known = validated.entry(chainKey), known.validity.contains(signedDate) {
            chain = known
        } else {
            var certificates: [Certificate] = []
            for encoded in x5c {
                guard let der = Data(base64Encoded: encoded), let certificate = try? Certificate(derEncoded: Array(der)) else {
                    throw .malformedCertificate
                }
                certificates.append(certificate)
            }
            let path = try await validateChain(leaf: certificates[0], intermediate: certificates[1], at: signedDate)
            guard let key = P256.Signing.PublicKey(certificates[0].publicKey) else { throw .invalidSignature }
            let from = path.map(\.notValidBefore).max() ?? signedDate
            let until = path.map(\.notValidAfter).min() ?? signedDate
            chain = ValidatedChains.Entry(leafKey: key, validity: from...max(from, until), certificates: path)
            validated.store(chainKey, chain)
        }

        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            chain.leafKey.isValidSignature(signature, for: text[..<parts[1].endIndex])
        else { throw .invalidSignature }
        return Verified(payload: payload, signedDate: signedDate, chain: chain.certificates)
    }

    /// The chain leaf → intermediate → trusted root, valid at `date`, with Apple's marker extensions.
    func validateChain(leaf: Certificate, intermediate: Certificate, at date: Date) async throws(AppStoreVerificationError) -> [Certificate]
    {
        guard leaf.extensions[oid: Self.leafMarkerOID] != nil else { throw .missingMarker("leaf") }
        guard intermediate.extensions[oid: Self.intermediateMarkerOID] != nil else { throw .missingMarker("intermediate") }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppleChainShapePolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let chain) = result else {
            // Tell an expired certificate apart from an untrusted chain: the operator's fix differs.
            if [leaf, intermediate].contains(where: { !($0.notValidBefore...$0.notValidAfter).contains(date) }) {
                throw .certificateNotValidAtSignedDate
            }
            throw .untrustedChain
        }
        return Array(chain)
    }
}

/// Chains that passed validation, keyed by their exact `x5c` text: a later JWS with the same chain and a
/// `signedDate` inside the window where every certificate of the path is valid needs only its signature checked.
/// Only successes are kept, at most `limit` (the cache starts over when full).
final class ValidatedChains: Sendable {
    struct Entry: Sendable {
        var leafKey: P256.Signing.PublicKey
        var validity: ClosedRange<Date>
        var certificates: [Certificate]
    }

    static let limit = 64
    private let entries = Mutex<[String: Entry]>([:])

    func entry(_ key: String) -> Entry? { entries.withLock { $0[key] } }

    func store(_ key: String, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }
}

/// The chain Apple signs with: exactly leaf, intermediate and root. (The markers of the first two are checked before
/// chain building; a length-3 path can only run through `x5c[1]`, as roots end a path.)
struct AppleChainShapePolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        chain.count == 3 ? .meetsPolicy : .failsToMeetPolicy(reason: "App Store chains are leaf, intermediate and root")
    }
}

/// Why signed App Store data was refused. `reason` is stable and safe to show.
public enum AppStoreVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case unsupportedAlgorithm
    case missingCertificateChain
    case wrongChainLength(Int)
    case malformedCertificate
    case missingMarker(String)
    case untrustedChain
    case certificateNotValidAtSignedDate
    case invalidSignature
    case bundleIDMismatch
    case environmentMismatch
    case appAppleIDMismatch
    case inconsistentNestedData(String)
    case notConfigured

    /// A short machine-readable reason (`details.reason`).
    public var reason: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .missingCertificateChain: "missing_x5c"
        case .wrongChainLength: "x5c_length"
        case .malformedCertificate: "malformed_certificate"
        case .missingMarker: "missing_apple_oid"
        case .untrustedChain: "untrusted_chain"
        case .certificateNotValidAtSignedDate: "certificate_not_valid_at_signed_date"
        case .invalidSignature: "invalid_signature"
        case .bundleIDMismatch: "bundle_id_mismatch"
        case .environmentMismatch: "environment_mismatch"
        case .appAppleIDMismatch: "app_apple_id_mismatch"
        case .inconsistentNestedData: "inconsistent_nested_data"
        case .notConfigured: "not_configured"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let what): "malformed signed data: \(what)"
        case .unsupportedAlgorithm: "the JWS algorithm must be ES256"
        case .missingCertificateChain: "the JWS header has no x5c certificate chain"
        case .wrongChainLength(let count): "x5c must hold exactly 3 certificates, not \(count)"
        case .malformedCertificate: "an x5c certificate is not valid DER"
        case .missingMarker(let which): "the \(which) certificate lacks Apple's marker extension"
        case .untrustedChain: "the certificate chain does not lead to a trusted root"
        case .certificateNotValidAtSignedDate: "a certificate of the chain was not valid at signedDate"
        case .invalidSignature: "the signature does not verify with the leaf certificate's key"
        case .bundleIDMismatch: "the bundle id is not this app's"
        case .environmentMismatch: "the environment is not the configured one"
        case .appAppleIDMismatch: "the app Apple id is not this app's"
        case .inconsistentNestedData(let what): "the nested signed data disagrees: \(what)"
        case .notConfigured: "App Store verification is not configured (POVVER_APPSTORE_BUNDLE_ID)"
        }
    }
}
