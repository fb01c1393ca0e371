import Contracts

/// A module as a composition takes it: its name, the contracts it provides and consumes, and how to build it
/// from the shared platform pieces and what it consumes. Its own settings are read when the definition is made
/// (before the database opens), so a bad value stops the start without touching anything.
public struct ModuleDefinition: Sendable {
    public let name: String
    public let provides: [AnyContractKey]
    public let consumes: [AnyContractKey]
    /// Contracts the module uses when the composition has a provider and works without (it says so to its users).
    public let uses: [AnyContractKey]
    /// A test's stand-in rather than a module (logged when composed).
    public private(set) var isSubstitute = false
    let make: @Sendable (ModuleContext) async throws -> ModulePlugin

    /// A module built as `Module`: what it provides is read from the built value (`provides`, each a contract and
    /// where the module keeps it), so the contracts it declares and the ones it delivers are one list; `plugin` gives
    /// its tables, routes, handlers, jobs and services. The built value is the composition's `module(_:)`.
    public init<Module: Sendable>(
        name: String, provides: [Provision<Module>] = [], consumes: [AnyContractKey] = [], uses: [AnyContractKey] = [],
        build: @escaping @Sendable (ModuleContext) async throws -> Module,
        plugin: @escaping @Sendable (Module, ModuleContext) async throws -> ModulePlugin
    ) {
        self.name = name
        self.provides = provides.map(\.key)
        self.consumes = consumes
        self.uses = uses
        self.make = { context in
            let module = try await build(context)
            var built = try await plugin(module, context)
            built.provides = provides.map { $0.contract(module) }
            built.module = module
            return built
        }
    }

    /// A module that provides no contract (the web app), or a test's module that declares `provides` by key and
    /// delivers them in its plugin (the build fails on one it does not deliver).
    public init(
        name: String, provides: [AnyContractKey] = [], consumes: [AnyContractKey] = [], uses: [AnyContractKey] = [],
        make: @escaping @Sendable (ModuleContext) async throws -> ModulePlugin
    ) {
        self.name = name
        self.provides = provides
        self.consumes = consumes
        self.uses = uses
        self.make = make
    }

    /// A stand-in that only provides `contracts` (no tables, routes or work): a test's fake in place of a live module,
    /// composed through the same API. A served process never adds one on its own.
    public static func substitute(_ name: String, providing contracts: [ProvidedContract]) -> ModuleDefinition {
        var definition = ModuleDefinition(name: name, provides: contracts.map(\.key)) { _ in
            ModulePlugin(name: name, provides: contracts)
        }
        definition.isSubstitute = true
        return definition
    }
}

/// One contract a module provides and where the built module keeps it: `.contract(Contract.planLibrary, \.planLibrary)`.
public struct Provision<Module: Sendable>: Sendable {
    let key: AnyContractKey
    let contract: @Sendable (Module) -> ProvidedContract

    public static func contract<Value>(_ key: ContractKey<Value>, _ read: @escaping @Sendable (Module) -> Value) -> Provision {
        Provision(key: key.erased) { ProvidedContract(key, read($0)) }
    }
}

/// What a module is built with: the platform's pieces and the contracts of the modules built before it, as far as
/// its definition declares them: a contract it did not declare is refused, so `consumes` and `uses` are the whole
/// truth of what it reads.
public struct ModuleContext: Sendable {
    public let platform: PlatformServices
    /// The module being built, named in errors.
    public let module: String
    let contracts: ProvidedContracts
    let consumes: Set<AnyContractKey>
    let uses: Set<AnyContractKey>
    /// Every module's eraser once the whole composition is built (read when a deletion runs, never while building).
    public let erasers: UserDataErasers

    /// A contract the module declared it consumes; `CompositionError.undeclaredContract` for one it did not.
    public func require<Value>(_ key: ContractKey<Value>) throws -> Value {
        guard consumes.contains(key.erased) else { throw CompositionError.undeclaredContract(module: module, contract: key.erased) }
        return try contracts.require(key, by: "the module \(module)")
    }

    /// A contract the module declared it uses when present, or nil when no module of the composition provides it;
    /// `CompositionError.undeclaredContract` for one it did not declare.
    public func find<Value>(_ key: ContractKey<Value>) throws -> Value? {
        guard uses.contains(key.erased) || consumes.contains(key.erased) else {
            throw CompositionError.undeclaredContract(module: module, contract: key.erased)
        }
        return contracts.find(key)
    }
}
