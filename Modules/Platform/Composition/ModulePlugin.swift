import Contracts
import ServiceLifecycle

/// What a built module hands the composition: its name, the contracts it provides, its tables, routes, event
/// handlers, jobs, background services, the eraser account deletion calls, and what to prepare before serving.
public struct ModulePlugin: Sendable {
    public var name: String
    public var provides: [ProvidedContract]
    public var migrations: [Migration]
    public var endpoints: [Endpoint]
    public var eventHandlers: [EventHandler]
    public var jobs: [JobDefinition]
    public var services: [any Service]
    /// nil for a module that keeps nothing of a user (a substitute).
    public var eraser: (any UserDataEraser)?
    /// Work a serving process does once before it takes requests (filling caches the first requests would
    /// otherwise wait for); it must not fail the start.
    public var prepare: @Sendable () async -> Void
    /// The built module itself, set by a typed definition (`Composition.module(_:)`).
    public internal(set) var module: (any Sendable)?

    public init(
        name: String, provides: [ProvidedContract] = [], migrations: [Migration] = [], endpoints: [Endpoint] = [],
        eventHandlers: [EventHandler] = [], jobs: [JobDefinition] = [], services: [any Service] = [], eraser: (any UserDataEraser)? = nil,
        prepare: @escaping @Sendable () async -> Void = {}
    ) {
        self.name = name
        self.provides = provides
        self.migrations = migrations
        self.endpoints = endpoints
        self.eventHandlers = eventHandlers
        self.jobs = jobs
        self.services = services
        self.eraser = eraser
        self.prepare = prepare
    }
}

extension Migrator {
    /// Platform's own migrations, under the module name `platform`.
    public static var platformMigrations: (module: String, migrations: [Migration]) {
        ("platform", PlatformMigrations.all)
    }
}
