import Contracts
import ServiceLifecycle

/// What a module hands the composition root: its name, its tables, routes, event handlers, jobs, background
/// services, and the eraser account deletion calls.
public struct ModulePlugin: Sendable {
    public var name: String
    public var migrations: [Migration]
    public var endpoints: [Endpoint]
    public var eventHandlers: [EventHandler]
    public var jobs: [JobDefinition]
    public var services: [any Service]
    public var eraser: any UserDataEraser

    public init(
        name: String, migrations: [Migration] = [], endpoints: [Endpoint] = [], eventHandlers: [EventHandler] = [],
        jobs: [JobDefinition] = [], services: [any Service] = [], eraser: any UserDataEraser
    ) {
        self.name = name
        self.migrations = migrations
        self.endpoints = endpoints
        self.eventHandlers = eventHandlers
        self.jobs = jobs
        self.services = services
        self.eraser = eraser
    }
}

extension Migrator {
    /// Platform's own migrations, under the module name `platform`.
    public static var platformMigrations: (module: String, migrations: [Migration]) {
        ("platform", PlatformMigrations.all)
    }
}
