import Contracts
import Synchronization

/// The erasers of every module of a composition (and Platform's), filled once the composition is built: account
/// deletion, built with the first module, reads them when it runs.
public final class UserDataErasers: Sendable {
    private let erasers = Mutex<[any UserDataEraser]>([])

    public init(_ erasers: [any UserDataEraser] = []) {
        self.erasers.withLock { $0 = erasers }
    }

    public var all: [any UserDataEraser] { erasers.withLock { $0 } }

    func set(_ erasers: [any UserDataEraser]) {
        self.erasers.withLock { $0 = erasers }
    }
}
