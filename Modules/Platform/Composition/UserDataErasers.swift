import Contracts
import Synchronization

/// A module this process composes, by the name its tables are migrated under, and what erases a user's rows in
/// it (nil: it keeps nothing of a user).
public struct ModuleEraser: Sendable {
    public let module: String
    public let eraser: (any UserDataEraser)?

    public init(module: String, eraser: (any UserDataEraser)?) {
        self.module = module
        self.eraser = eraser
    }
}

/// The erasers of every module of a composition (and Platform's), filled once the composition is built: account
/// deletion, built with the first module, reads them when it runs.
public final class UserDataErasers: Sendable {
    private let state = Mutex<(erasers: [any UserDataEraser], modules: [ModuleEraser])>(([], []))

    /// `erasers` as a composition of the modules they name (Platform's is no module).
    public init(_ erasers: [any UserDataEraser] = []) {
        set(erasers, modules: erasers.filter { $0.module != "platform" }.map { ModuleEraser(module: $0.module, eraser: $0) })
    }

    public var all: [any UserDataEraser] { state.withLock { $0.erasers } }

    /// The modules composed here (substitutes aside), in build order: account deletion erases these in this
    /// process and leaves each other module with tables to a process that composes it (`UserErasure`).
    public var modules: [ModuleEraser] { state.withLock { $0.modules } }

    func set(_ erasers: [any UserDataEraser], modules: [ModuleEraser]) {
        state.withLock { $0 = (erasers, modules) }
    }
}
