import Contracts
import Platform

/// Sign-in limits that stop guessing without letting a guesser lock the owner out (OWASP's authentication cheat
/// sheet: count failures, not attempts; throttle rather than lock).
///
/// - Every attempt counts against its address first (`signInPerAddress`): one address cannot try much.
/// - Only failures count against an account (a wrong password, or an unknown email: the two look alike).
/// - While an account has more than `signInFailuresPerAccount` failures in the window, an address with a failure of
///   its own against the account is refused (it looks like the guesser), and an address with none may try once per
///   `signInLockedAccountAttempts` back-off across all addresses: the owner's right password still signs them in,
///   while a guesser spreading over many addresses gets one try per back-off.
/// - A successful sign-in clears the account's failures (and its address's against it): the owner, signed in, is not
///   held to the back-off on their next device. A guesser gains at most one more round of failures per sign-in of
///   the owner's, as a new window would give them anyway.
extension AuthService {
    /// Failed sign-ins per account (known or unknown email alike, so the limit reveals nothing).
    static let signInFailuresPerAccount = RateLimit(name: "auth.sign_in.account_failures", limit: 10, window: 15 * 60)
    /// Failed sign-ins per account from one address.
    static let signInFailuresPerAccountAddress = RateLimit(name: "auth.sign_in.account_address_failures", limit: 10, window: 15 * 60)
    /// While an account is over its failure limit: one attempt per back-off from addresses without a failure against it.
    static let signInLockedAccountAttempts = RateLimit(name: "auth.sign_in.locked_account_attempts", limit: 1, window: 5)

    /// Refuses (`RATE_LIMITED`) a sign-in the limits do not admit; counts the attempt against its address.
    func admitSignIn(email: String, clientAddress: String?) async throws {
        guard let limiter else { return }
        if let clientAddress { try await limiter.hit(Self.signInPerAddress, key: clientAddress) }
        guard try await limiter.count(Self.signInFailuresPerAccount, key: email) >= Self.signInFailuresPerAccount.limit else { return }
        if try await limiter.count(Self.signInFailuresPerAccountAddress, key: Self.accountAddressKey(email, clientAddress)) > 0 {
            throw limiter.refusal(Self.signInFailuresPerAccountAddress)
        }
        try await limiter.hit(Self.signInLockedAccountAttempts, key: email)
    }

    /// Counts a failed sign-in against the account, and against the account from its address.
    func recordSignInFailure(email: String, clientAddress: String?) async throws {
        guard let limiter else { return }
        try await limiter.record(Self.signInFailuresPerAccount, key: email)
        try await limiter.record(Self.signInFailuresPerAccountAddress, key: Self.accountAddressKey(email, clientAddress))
    }

    /// Forgets the account's failures, and those of `clientAddress` against it, once the right password was given.
    func clearSignInFailures(email: String, clientAddress: String?) async throws {
        guard let limiter else { return }
        try await limiter.reset([
            (Self.signInFailuresPerAccount, email), (Self.signInFailuresPerAccountAddress, Self.accountAddressKey(email, clientAddress)),
            (Self.signInLockedAccountAttempts, email),
        ])
    }

    static func accountAddressKey(_ email: String, _ clientAddress: String?) -> String {
        email + "\n" + (clientAddress ?? "")
    }
}
