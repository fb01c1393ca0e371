import Contracts
import Fakes
import Platform
import TestSupport
import Testing

/// How a composition orders and checks its modules before building any.
@Suite struct CompositionOrderTests {
    static func module(_ name: String, provides: [AnyContractKey] = [], consumes: [AnyContractKey] = []) -> ModuleDefinition {
        ModuleDefinition(name: name, provides: provides, consumes: consumes) { _ in ModulePlugin(name: name) }
    }

    @Test func providersAreBuiltBeforeTheirConsumersAndTheGivenOrderIsKeptOtherwise() throws {
        let coach = Self.module("coach", consumes: [Contract.premiumGate.erased, Contract.trainingLog.erased])
        let gate = Self.module("subscription", provides: [Contract.premiumGate.erased])
        let log = Self.module("workouts", provides: [Contract.trainingLog.erased])
        let other = Self.module("analytics")
        #expect(try Composition.order([coach, other, gate, log]).map(\.name) == ["analytics", "subscription", "workouts", "coach"])
        #expect(try Composition.order([gate, log, coach, other]).map(\.name) == ["subscription", "workouts", "coach", "analytics"])
    }

    @Test func whatAModuleUsesWhenPresentIsBuiltFirstAndItsAbsenceIsNoError() throws {
        let coach = ModuleDefinition(name: "coach", uses: [Contract.trainingAnalysisSummaries.erased]) { _ in ModulePlugin(name: "coach") }
        let analyst = Self.module("recommendations", provides: [Contract.trainingAnalysisSummaries.erased])
        #expect(try Composition.order([coach, analyst]).map(\.name) == ["recommendations", "coach"])
        #expect(try Composition.order([coach]).map(\.name) == ["coach"])
    }

    @Test func whatCannotBeComposedIsRefusedNamingIt() {
        let gate = Self.module("subscription", provides: [Contract.premiumGate.erased])
        let coach = Self.module("coach", consumes: [Contract.premiumGate.erased])
        #expect(throws: CompositionError.missingContract(consumer: "the module coach", contract: Contract.premiumGate.erased)) {
            try Composition.order([coach])
        }
        #expect(throws: CompositionError.missingContract(consumer: "the auth lanes", contract: Contract.accountDirectory.erased)) {
            try Composition.order([gate], rootConsumes: ("the auth lanes", [Contract.accountDirectory.erased]))
        }
        #expect(throws: CompositionError.duplicateProvider(contract: Contract.premiumGate.erased, modules: ["subscription", "fake"])) {
            try Composition.order([gate, Self.module("fake", provides: [Contract.premiumGate.erased])])
        }
        #expect(throws: CompositionError.duplicateModule("subscription")) { try Composition.order([gate, gate]) }
        let a = Self.module("a", provides: [Contract.planLibrary.erased], consumes: [Contract.trainingLog.erased])
        let b = Self.module("b", provides: [Contract.trainingLog.erased], consumes: [Contract.planLibrary.erased])
        #expect(throws: CompositionError.cycle(["a", "b"])) { try Composition.order([a, b]) }
        #expect(
            "\(CompositionError.missingContract(consumer: "the module coach", contract: Contract.premiumGate.erased))"
                == "No module of this composition provides PremiumGate, which is consumed by the module coach: add the subscription module "
                + "(POVVER_MODULES) or a substitute providing PremiumGate.")
    }
}
