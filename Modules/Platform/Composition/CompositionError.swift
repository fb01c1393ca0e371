import Contracts

/// Why a list of modules cannot be composed. Raised before any module is built (and before any table is created).
public enum CompositionError: Error, CustomStringConvertible, Equatable {
    /// `consumer` needs `contract` and no module of the composition provides it.
    case missingContract(consumer: String, contract: AnyContractKey)
    /// Two modules provide the same contract.
    case duplicateProvider(contract: AnyContractKey, modules: [String])
    /// Two modules of the same name.
    case duplicateModule(String)
    /// Modules that consume each other's contracts, so none can be built first.
    case cycle([String])
    /// A module built without a contract it declared it provides.
    case undeliveredContract(module: String, contract: AnyContractKey)
    /// A module asked, while built, for a contract its definition does not consume or use.
    case undeclaredContract(module: String, contract: AnyContractKey)
    /// No module of the composition was built as the type asked for.
    case missingModule(String)
    /// A name in `POVVER_MODULES` that is no module.
    case unknownModule(String, known: [String])

    public var description: String {
        switch self {
        case .missingContract(let consumer, let contract):
            "No module of this composition provides \(contract.name), which is consumed by \(consumer): add the \(contract.providedBy) "
                + "module (POVVER_MODULES) or a substitute providing \(contract.name)."
        case .duplicateProvider(let contract, let modules):
            "\(contract.name) is provided by more than one module: \(modules.joined(separator: ", "))."
        case .duplicateModule(let name):
            "the module \(name) is listed twice."
        case .cycle(let modules):
            "These modules consume each other's contracts, so none can be built first: \(modules.joined(separator: ", "))."
        case .undeliveredContract(let module, let contract):
            "the module \(module) declares that it provides \(contract.name) but did not."
        case .undeclaredContract(let module, let contract):
            "the module \(module) asked for \(contract.name), which its definition does not declare (consumes or uses)."
        case .missingModule(let type):
            "No module of this composition is a \(type)."
        case .unknownModule(let name, let known):
            "POVVER_MODULES names \(name), which is no module; the modules are \(known.joined(separator: ", "))."
        }
    }
}
