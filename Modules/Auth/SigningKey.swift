import Contracts
import Crypto
import Foundation
import JWTKit
import Platform

/// The ES256 key access tokens are signed with, loaded from a PEM file or created there on first start.
public struct SigningKey: Sendable {
    public let privateKey: ES256PrivateKey
    /// RFC 7638-style thumbprint of the public key, published as `kid`.
    public let keyID: String

    public init(privateKey: ES256PrivateKey) {
        self.privateKey = privateKey
        let parameters = privateKey.parameters
        let material = Data("{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"\(parameters?.x ?? "")\",\"y\":\"\(parameters?.y ?? "")\"}".utf8)
        self.keyID = String(Data(SHA256.hash(data: material)).base64URLEncoded().prefix(16))
    }

    /// A fresh key (tests).
    public static func generate() -> SigningKey {
        SigningKey(privateKey: ES256PrivateKey())
    }

    /// Loads the key at `path`, creating it (mode 0600) when the file does not exist. Several processes
    /// starting at once agree on one key: the first to link its file wins and the others read it.
    public static func loadOrCreate(path: String) throws -> SigningKey {
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = "\(path).\(UUID().uuidString).tmp"
            let pem = ES256PrivateKey().pemRepresentation
            guard manager.createFile(atPath: temporary, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw ServiceError(.internalError, "Cannot write the signing key file at \(path).")
            }
            defer { try? manager.removeItem(atPath: temporary) }
            _ = link(temporary, path)  // fails harmlessly if another process created it first
        }
        guard let data = manager.contents(atPath: path) else {
            throw ServiceError(.internalError, "Cannot read the signing key file at \(path).")
        }
        do {
            return SigningKey(privateKey: try ES256PrivateKey(pem: data))
        } catch {
            throw ServiceError(.internalError, "The signing key file at \(path) is not an EC P-256 private key in PEM form.")
        }
    }

    /// The JSON Web Key Set with the public half, for `/.well-known/jwks.json`.
    public var jwks: JWKSDocument {
        let parameters = privateKey.parameters
        return JWKSDocument(keys: [
            .init(kty: "EC", crv: "P-256", x: parameters?.x ?? "", y: parameters?.y ?? "", kid: keyID, alg: "ES256", use: "sig")
        ])
    }
}

/// `{"keys": [...]}` as RFC 7517 writes it.
public struct JWKSDocument: Codable, Sendable, Equatable {
    public struct Key: Codable, Sendable, Equatable {
        public var kty: String
        public var crv: String
        public var x: String
        public var y: String
        public var kid: String
        public var alg: String
        public var use: String
    }
    public var keys: [Key]
}
