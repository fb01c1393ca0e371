import Contracts
import Foundation

/// A module's user data held in memory, so deletion flows can be tested without storage.
public actor FakeUserDataEraser: UserDataEraser {
    public nonisolated let module: String
    private var records: [String: [String]] = [:]
    private(set) public var erasedUsers: [String] = []

    public init(module: String) { self.module = module }

    /// Stores one record for `userId`.
    public func store(userId: String, record: String) { records[userId, default: []].append(record) }

    /// How many records `userId` has.
    public func recordCount(userId: String) -> Int { records[userId]?.count ?? 0 }

    public func eraseUserData(userId: String) async throws {
        records[userId] = nil
        erasedUsers.append(userId)
    }
}
