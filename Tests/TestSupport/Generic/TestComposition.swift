import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform

/// One path builds a module for its own tests as for the server: the module's definition, composed by `Composition`
/// with a substitute providing the neighbours' contracts (fakes the test fills). The composition checks what the
/// module consumes against what the substitute provides, migrates the module's tables and gives its jobs, as the
/// server's does.
public enum TestComposition {
    /// Platform services on `database` for a test: the given clock and ids, mail to the log, the shared HTTP client.
    public static func platform(
        _ database: Database, clock: any WallClock = FakeWallClock(), ids: any IDGenerator = RandomIDGenerator()
    ) -> PlatformServices {
        PlatformServices(
            database: database, clock: clock, ids: ids, logger: TestDatabases.logger, metrics: ServerMetrics(), http: .shared,
            threadPool: .singleton, mail: MailService(transport: LogMailTransport(logger: TestDatabases.logger), from: "t@example.com"))
    }

    /// `definition` composed with a substitute module (`neighbours`) providing `contracts`.
    public static func build(_ definition: ModuleDefinition, neighbours contracts: [ProvidedContract], platform: PlatformServices)
        async throws -> Composition
    {
        try await Composition.build([.substitute("test-neighbours", providing: contracts), definition], platform: platform)
    }
}
