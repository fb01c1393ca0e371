import Contracts
import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// Slow, salted password hashing with bcrypt (hummingbird-auth). The password is first reduced with SHA-256
/// so bcrypt's 72-byte input limit never silently truncates a long passphrase. Hashing runs on the NIO
/// thread pool so it never blocks an event loop.
public struct PasswordHasher: Sendable {
    static let scheme = "bcrypt-sha256$"
    public let cost: Int
    let threadPool: NIOThreadPool
    /// A real hash at this cost, made on first need, that unknown accounts are checked against.
    private let dummy = DummyHash()

    public init(cost: Int, threadPool: NIOThreadPool) {
        self.cost = cost
        self.threadPool = threadPool
    }

    public func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password)
        let cost = UInt8(clamping: self.cost)
        return try await threadPool.runIfActive {
            Self.scheme + Bcrypt.hash(input, cost: cost)
        }
    }

    /// Whether `password` matches `stored`. With `stored == nil` it spends the same time and returns false,
    /// so an unknown account cannot be told from a wrong password by timing.
    public func verify(_ password: String, against stored: String?) async throws -> Bool {
        let input = Self.prehash(password)
        let target = stored.flatMap { $0.hasPrefix(Self.scheme) ? String($0.dropFirst(Self.scheme.count)) : nil }
        let dummy = self.dummy
        let cost = UInt8(clamping: self.cost)
        return try await threadPool.runIfActive {
            let matched = Bcrypt.verify(input, hash: target ?? dummy.hash(cost: cost))
            return matched && target != nil
        }
    }

    final class DummyHash: Sendable {
        private let value = Mutex<String?>(nil)

        func hash(cost: UInt8) -> String {
            value.withLock { value in
                if let value { return value }
                let made = Bcrypt.hash(UUID().uuidString, cost: cost)
                value = made
                return made
            }
        }
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
