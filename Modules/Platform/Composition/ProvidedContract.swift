import Contracts

/// One contract a module provides: its key and the implementation.
public struct ProvidedContract: Sendable {
    public let key: AnyContractKey
    let value: any Sendable

    public init<Value>(_ key: ContractKey<Value>, _ value: Value) {
        self.key = key.erased
        self.value = value
    }
}

/// The contracts the modules of a composition provide, looked up by key.
public struct ProvidedContracts: Sendable {
    private var values: [AnyContractKey: any Sendable] = [:]

    public init() {}

    mutating func add(_ contract: ProvidedContract) {
        values[contract.key] = contract.value
    }

    public func contains(_ key: AnyContractKey) -> Bool { values[key] != nil }

    /// The implementation of `key`, or nil when no module of the composition provides it.
    public func find<Value>(_ key: ContractKey<Value>) -> Value? {
        values[key.erased] as? Value
    }

    /// The implementation of `key`; throws naming the module that provides it when none does.
    public func require<Value>(_ key: ContractKey<Value>, by consumer: String) throws -> Value {
        guard let value = find(key) else { throw CompositionError.missingContract(consumer: consumer, contract: key.erased) }
        return value
    }
}
