import Foundation

/// Whether a user may use premium features (the AI coach, LLM analysis). Provided by Subscription; consumed by
/// Conversations, Recommendations and Analytics.
public protocol PremiumGate: Sendable {
    /// True when the user has premium access: an operator's `premium` override, or the premium tier the App
    /// Store keeps (trial, active, grace period). A user the gate knows nothing about is not premium.
    /// Throws only on storage failure.
    func isPremium(userId: String) async throws -> Bool
}

extension PremiumGate {
    /// Returns when the user is premium; throws `PREMIUM_REQUIRED` otherwise.
    public func requirePremium(userId: String) async throws {
        guard try await isPremium(userId: userId) else { throw ServiceError(.premiumRequired) }
    }
}
