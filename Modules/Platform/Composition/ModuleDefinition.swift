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

/// What a module is built with: the platform's pieces and the contracts of the modules built before it.
public struct ModuleContext: Sendable {
    public let platform: PlatformServices
    /// The module being built, named in errors.
    public let module: String
    let contracts: ProvidedContracts
    /// Every module's eraser once the whole composition is built (read when a deletion runs, never while building).
    public let erasers: UserDataErasers

    /// A contract the module declared it consumes.
    public func require<Value>(_ key: ContractKey<Value>) throws -> Value {
        try contracts.require(key, by: "the module \(module)")
    }

    /// A contract the module declared it uses when present, or nil when no module of the composition provides it.
    public func find<Value>(_ key: ContractKey<Value>) -> Value? {
        contracts.find(key)
    }
}
