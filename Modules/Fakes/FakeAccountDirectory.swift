import Contracts
import Foundation

/// An account directory a test fills by hand.
public actor FakeAccountDirectory: AccountDirectory {
    private var accounts: [String: AccountSummary] = [:]

    public init(_ accounts: [AccountSummary] = []) {
        for account in accounts { self.accounts[account.userId] = account }
    }

    public func add(_ account: AccountSummary) { accounts[account.userId] = account }

    public func remove(userId: String) { accounts[userId] = nil }

    public func account(userId: String) async throws -> AccountSummary? { accounts[userId] }
}
