import AsyncHTTPClient
import Contracts
import Fakes
import NIOPosix
import Platform
import TestSupport
import Testing

/// Building a composition: each module gets what it consumes, declared contracts must be delivered, and only the
/// composed modules' tables are created.
@Suite struct CompositionBuildTests {
    static func platform(_ database: Database) -> PlatformServices {
        TestComposition.platform(database, clock: FakeWallClock())
    }

    @Test(arguments: TestDatabases.engines)
    func consumersGetTheirProvidersContractsAndOnlyComposedTablesAreMade(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let gate = FakePremiumGate(premium: ["u1"])
            let table = Migration(version: 1, name: "coach tables") { _ in ["CREATE TABLE coach_notes (user_id TEXT NOT NULL)"] }
            let coach = ModuleDefinition(name: "coach", consumes: [Contract.premiumGate.erased]) { context in
                let premium = try context.require(Contract.premiumGate)
                #expect(try await premium.isPremium(userId: "u1"))
                return ModulePlugin(name: "coach", migrations: [table], eraser: FakeUserDataEraser(module: "coach"))
            }
            let composition = try await Composition.build(
                [coach, .substitute("fake-subscription", providing: [ProvidedContract(Contract.premiumGate, gate)])],
                platform: Self.platform(db))
            #expect(composition.plugins.map(\.name) == ["fake-subscription", "coach"])
            #expect(composition.erasers.all.map(\.module) == ["platform", "coach"])
            // Account deletion leaves the coach's rows to processes composing it; a substitute keeps nothing.
            #expect(composition.erasers.modules.map(\.module) == ["coach"])
            #expect(composition.jobs.map(\.kind).filter { $0.hasPrefix(UserErasure.jobKindPrefix) } == ["platform.erase:coach"])
            #expect(try await TestDatabases.tables(in: db, prefix: "coach_", withColumn: "user_id") == ["coach_notes"])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aModuleThatDoesNotDeliverWhatItDeclaresFailsTheBuild(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let liar = ModuleDefinition(name: "liar", provides: [Contract.trainingLog.erased]) { _ in ModulePlugin(name: "liar") }
            await #expect(throws: CompositionError.undeliveredContract(module: "liar", contract: Contract.trainingLog.erased)) {
                _ = try await Composition.build([liar], platform: Self.platform(db))
            }
        }
    }

    /// A module built as a type: what it provides is read from the built value, and the composition hands the value
    /// back by its type (no key in the contract registry).
    struct Coach: Sendable {
        let gate: any PremiumGate
    }

    @Test(arguments: TestDatabases.engines)
    func aTypedModuleProvidesFromItsValueAndIsFoundByItsType(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let typed = ModuleDefinition(
                name: "coach", provides: [.contract(Contract.premiumGate, \.gate)],
                build: { _ in Coach(gate: FakePremiumGate(premium: ["u1"])) }, plugin: { _, _ in ModulePlugin(name: "coach") })
            #expect(typed.provides == [Contract.premiumGate.erased], "declared by what it delivers")
            let composition = try await Composition.build([typed], platform: Self.platform(db))
            #expect(try await composition.module(Coach.self).gate.isPremium(userId: "u1"))
            #expect(try await composition.require(Contract.premiumGate).isPremium(userId: "u1"))
            #expect(throws: CompositionError.missingModule("String")) { _ = try composition.module(String.self) }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aModuleGetsOnlyTheContractsItDeclares(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let gate = ProvidedContract(Contract.premiumGate, FakePremiumGate(premium: ["u1"]))
            let sneaky = ModuleDefinition(name: "sneaky") { context in
                _ = try context.require(Contract.premiumGate)
                return ModulePlugin(name: "sneaky")
            }
            await #expect(throws: CompositionError.undeclaredContract(module: "sneaky", contract: Contract.premiumGate.erased)) {
                _ = try await Composition.build([.substitute("fake", providing: [gate]), sneaky], platform: Self.platform(db))
            }
            let peeking = ModuleDefinition(name: "peeking") { context in
                _ = try context.find(Contract.premiumGate)
                return ModulePlugin(name: "peeking")
            }
            await #expect(throws: CompositionError.undeclaredContract(module: "peeking", contract: Contract.premiumGate.erased)) {
                _ = try await Composition.build([.substitute("fake", providing: [gate]), peeking], platform: Self.platform(db))
            }
        }
    }
}
