import Foundation

/// Names one Contracts protocol inside a composition: what a module provides or consumes. `providedBy` is the
/// module that provides it in the full server, named when a composition lacks it.
public struct ContractKey<Value: Sendable>: Sendable, Hashable {
    public let name: String
    public let providedBy: String

    public init(name: String, providedBy: String) {
        self.name = name
        self.providedBy = providedBy
    }

    /// The same key without its value type, for declaring what a module provides and consumes.
    public var erased: AnyContractKey { AnyContractKey(name: name, providedBy: providedBy) }
}

/// A `ContractKey` without its value type.
public struct AnyContractKey: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let providedBy: String

    public var description: String { name }
}

/// Every contract one module may provide to another, with the module that provides it in the full server.
public enum Contract {
    public static let accessTokenVerifier = ContractKey<any AccessTokenVerifier>(name: "AccessTokenVerifier", providedBy: ModuleName.auth)
    public static let accountDirectory = ContractKey<any AccountDirectory>(name: "AccountDirectory", providedBy: ModuleName.auth)
    public static let premiumGate = ContractKey<any PremiumGate>(name: "PremiumGate", providedBy: ModuleName.subscription)
    public static let exerciseCatalog = ContractKey<any ExerciseCatalog>(name: "ExerciseCatalog", providedBy: ModuleName.workouts)
    public static let planLibrary = ContractKey<any PlanLibrary>(name: "PlanLibrary", providedBy: ModuleName.workouts)
    public static let trainingLog = ContractKey<any TrainingLog>(name: "TrainingLog", providedBy: ModuleName.workouts)
    public static let activeWorkoutControl = ContractKey<any ActiveWorkoutControl>(
        name: "ActiveWorkoutControl", providedBy: ModuleName.workouts)
    public static let trainingAnalytics = ContractKey<any TrainingAnalytics>(name: "TrainingAnalytics", providedBy: ModuleName.analytics)
    public static let trainingAnalysisSummaries = ContractKey<any TrainingAnalysisSummaries>(
        name: "TrainingAnalysisSummaries", providedBy: ModuleName.recommendations)
    public static let productEvents = ContractKey<any ProductEventSink>(name: "ProductEventSink", providedBy: ModuleName.analytics)
}
