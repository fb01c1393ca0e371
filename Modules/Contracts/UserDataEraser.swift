import Foundation

/// Erases everything one module stores about a user. Every module provides one; account deletion calls them all.
public protocol UserDataEraser: Sendable {
    /// The module whose data this eraser removes (for logs and the deletion record).
    var module: String { get }
    /// Removes every row the module holds for `userId`. Idempotent: erasing twice, or erasing a user the module
    /// never saw, succeeds and leaves nothing behind. Throws only on storage failure.
    func eraseUserData(userId: String) async throws
}
