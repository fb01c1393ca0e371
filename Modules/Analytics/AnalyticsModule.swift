import Contracts
import Platform

/// Analytics: training and product analytics. Product analytics (`Product/`) brings its tables, `trackEvents`,
/// its event handlers and the `ProductEventSink` other modules record through.
public struct AnalyticsModule: Sendable {
    public let product: ProductAnalytics
    public let eraser: AnalyticsUserDataEraser

    public init(database: Database, clock: any WallClock, ids: any IDGenerator) {
        self.product = ProductAnalytics(database: database, clock: clock, ids: ids)
        self.eraser = AnalyticsUserDataEraser(database: database, product: product)
    }

    /// Analytics in a composition: provides the product event sink (and itself, for the admin CLI); consumes nothing yet.
    public static func definition() -> ModuleDefinition {
        ModuleDefinition(name: "analytics", provides: [Contract.productEvents.erased, Self.handle.erased]) { context in
            let platform = context.platform
            let module = AnalyticsModule(database: platform.database, clock: platform.clock, ids: platform.ids)
            var plugin = module.plugin
            plugin.provides = [ProvidedContract(Contract.productEvents, module.product.sink), ProvidedContract(Self.handle, module)]
            return plugin
        }
    }

    /// The built module itself, for the admin CLI (`povver-analytics`) composed with it.
    public static let handle = ContractKey<AnalyticsModule>(name: "AnalyticsModule", providedBy: "analytics")

    public static var migrations: [Migration] { ProductAnalytics.migrations }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: "analytics", migrations: Self.migrations, endpoints: product.endpoints(), eventHandlers: product.eventHandlers,
            eraser: eraser)
    }
}

/// Erases the user's Analytics data, every table in one transaction: product events and milestones (each table
/// the module adds is deleted here in the same change).
public struct AnalyticsUserDataEraser: UserDataEraser {
    public let module = "analytics"
    let database: Database
    let product: ProductAnalytics

    public init(database: Database, product: ProductAnalytics) {
        self.database = database
        self.product = product
    }

    public func eraseUserData(userId: String) async throws {
        let product = self.product
        try await database.transaction { tx in try await product.eraseUserData(userId: userId, in: tx) }
    }
}
