import Contracts
import Foundation
import SwiftASN1
import X509

/// The roots App Store chains must lead to: the configured files (`POVVER_APPSTORE_ROOT_CERTS`), or Apple Root
/// CA - G3 bundled with the module.
public enum AppStoreTrustedRoots {
    /// Apple Root CA - G3 (`Resources/AppleRootCA-G3.der`, SHA-256 `63:34:3A:BF:…:3E:91:79`).
    public static func bundled() throws -> [Certificate] {
        guard let url = Bundle.module.url(forResource: "AppleRootCA-G3", withExtension: "der"), let der = try? Data(contentsOf: url) else {
            throw ServiceError(.internalError, "The bundled Apple Root CA - G3 is missing from the Subscription module's resources.")
        }
        return [try Certificate(derEncoded: Array(der))]
    }

    /// The certificates in `paths` (each a DER certificate or PEM with one or more), or the bundled root when
    /// `paths` is empty. Throws `INVALID_ARGUMENT` naming `POVVER_APPSTORE_ROOT_CERTS` for an unreadable file.
    public static func load(paths: [String]) throws -> [Certificate] {
        guard !paths.isEmpty else { return try bundled() }
        return try paths.flatMap { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ServiceError(
                    .invalidArgument, "Cannot read the App Store root certificate \(path).",
                    details: ["field": "POVVER_APPSTORE_ROOT_CERTS"])
            }
            do {
                return try parse(data)
            } catch {
                throw ServiceError(
                    .invalidArgument, "\(path) is not a DER or PEM certificate.", details: ["field": "POVVER_APPSTORE_ROOT_CERTS"])
            }
        }
    }

    /// One DER certificate, or every certificate of a PEM file.
    public static func parse(_ data: Data) throws -> [Certificate] {
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            let certificates = try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
            guard !certificates.isEmpty else { throw ServiceError(.invalidArgument, "no certificate") }
            return certificates
        }
        return [try Certificate(derEncoded: Array(data))]
    }
}
