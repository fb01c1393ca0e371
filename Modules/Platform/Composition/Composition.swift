import Contracts
import Logging
import ServiceLifecycle

/// A list of modules built into one whole on the shared platform pieces: each module built after the modules whose
/// contracts it consumes, their contracts collected, their tables migrated. The server, the admin CLIs and tests
/// all compose this way; only the list differs.
public struct Composition: Sendable {
    public let platform: PlatformServices
    /// The built modules, in build order.
    public let plugins: [ModulePlugin]
    public let contracts: ProvidedContracts
    /// Platform's eraser and every module's, as account deletion runs them.
    public let erasers: UserDataErasers

    /// The migrations of Platform and every module, in apply order.
    public var migrations: [(module: String, migrations: [Migration])] {
        [Migrator.platformMigrations] + plugins.map { ($0.name, $0.migrations) }
    }

    public var endpoints: [Endpoint] { plugins.flatMap(\.endpoints) }
    public var eventHandlers: [EventHandler] { plugins.flatMap(\.eventHandlers) }
    public var services: [any Service] { plugins.flatMap(\.services) }

    /// Every job a worker of this composition runs: the modules' own, the deliveries of their event handlers, and
    /// each composed module's part of account deletions (`UserErasure`).
    public var jobs: [JobDefinition] {
        plugins.flatMap(\.jobs) + OutboxDispatcher.deliveryJobs(handlers: eventHandlers, logger: platform.logger)
            + UserErasure.jobs(modules: erasers.modules, queue: platform.jobs)
    }

    /// The module of the composition built as `Module` (the admin CLIs' and tests' typed access to the module they
    /// work on); `CompositionError.missingModule` when none is.
    public func module<Module: Sendable>(_ type: Module.Type = Module.self) throws -> Module {
        for plugin in plugins { if let module = plugin.module as? Module { return module } }
        throw CompositionError.missingModule(String(describing: type))
    }

    /// A contract some module of the composition provides, for the composition root and the admin CLIs.
    public func require<Value>(_ key: ContractKey<Value>, by consumer: String = "this command") throws -> Value {
        try contracts.require(key, by: consumer)
    }

    /// Builds `definitions` in an order where every module comes after the providers of what it consumes, then
    /// migrates Platform's tables and theirs (only theirs: a module not composed gets no table).
    ///
    /// `rootConsumes`: contracts the caller itself needs (the server's auth lanes), checked with the modules'.
    /// Throws `CompositionError` before anything is built or migrated when a consumed contract has no provider.
    public static func build(
        _ definitions: [ModuleDefinition], platform: PlatformServices, rootConsumes: (consumer: String, contracts: [AnyContractKey])? = nil
    ) async throws -> Composition {
        let ordered = try order(definitions, rootConsumes: rootConsumes)
        let erasers = UserDataErasers()
        var contracts = ProvidedContracts()
        var plugins: [ModulePlugin] = []
        for definition in ordered {
            let plugin = try await definition.make(
                ModuleContext(
                    platform: platform, module: definition.name, contracts: contracts, consumes: Set(definition.consumes),
                    uses: Set(definition.uses), erasers: erasers))
            for key in definition.provides where !plugin.provides.contains(where: { $0.key == key }) {
                throw CompositionError.undeliveredContract(module: definition.name, contract: key)
            }
            for contract in plugin.provides where definition.provides.contains(contract.key) { contracts.add(contract) }
            plugins.append(plugin)
        }
        for definition in ordered where definition.isSubstitute {
            platform.logger.warning(
                "module substituted",
                metadata: ["event": "module_substituted", "module": "\(definition.name)", "provides": "\(definition.provides.map(\.name))"])
        }
        erasers.set(
            [PlatformUserDataEraser(database: platform.database)] + plugins.compactMap(\.eraser),
            modules: zip(ordered, plugins).filter { !$0.0.isSubstitute }.map { ModuleEraser(module: $0.1.name, eraser: $0.1.eraser) })
        let composition = Composition(platform: platform, plugins: plugins, contracts: contracts, erasers: erasers)
        try await Migrator(database: platform.database, logger: platform.logger).migrate(composition.migrations)
        return composition
    }

    /// `definitions` in build order. Throws when a consumed contract has no provider (naming the module that
    /// provides it in the full server), when two modules provide one contract or share a name, or on a cycle.
    public static func order(
        _ definitions: [ModuleDefinition], rootConsumes: (consumer: String, contracts: [AnyContractKey])? = nil
    ) throws -> [ModuleDefinition] {
        var providers: [AnyContractKey: String] = [:]
        var names = Set<String>()
        for definition in definitions {
            guard names.insert(definition.name).inserted else { throw CompositionError.duplicateModule(definition.name) }
            for key in definition.provides {
                if let other = providers[key] {
                    throw CompositionError.duplicateProvider(contract: key, modules: [other, definition.name])
                }
                providers[key] = definition.name
            }
        }
        for definition in definitions {
            for key in definition.consumes where providers[key] == nil {
                throw CompositionError.missingContract(consumer: "the module \(definition.name)", contract: key)
            }
        }
        if let rootConsumes {
            for key in rootConsumes.contracts where providers[key] == nil {
                throw CompositionError.missingContract(consumer: rootConsumes.consumer, contract: key)
            }
        }
        // Kahn's algorithm, keeping the given order among modules that are ready together.
        var remaining = definitions
        var built = Set<String>()
        var ordered: [ModuleDefinition] = []
        while !remaining.isEmpty {
            guard
                let next = remaining.firstIndex(where: { definition in
                    definition.consumes.allSatisfy { key in providers[key].map { $0 == definition.name || built.contains($0) } ?? false }
                        // What it uses when present is built first too; when no module provides it, there is nothing to wait for.
                        && definition.uses.allSatisfy { key in providers[key].map { $0 == definition.name || built.contains($0) } ?? true }
                })
            else { throw CompositionError.cycle(remaining.map(\.name)) }
            let definition = remaining.remove(at: next)
            built.insert(definition.name)
            ordered.append(definition)
        }
        return ordered
    }
}
