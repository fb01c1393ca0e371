import Contracts

/// A premium gate a test sets by hand: premium exactly for the users granted.
public actor FakePremiumGate: PremiumGate {
    private var premium: Set<String>

    public init(premium: Set<String> = []) {
        self.premium = premium
    }

    public func grant(userId: String) { premium.insert(userId) }

    public func revoke(userId: String) { premium.remove(userId) }

    public func isPremium(userId: String) async throws -> Bool { premium.contains(userId) }
}
