import EmulationKit
import MockControl

/// The registry-defaulted forms of what takes the systems as a value, for tests and embedders:
/// the composition root is the one place that may name the registry.
extension FaultRuleDraft {
    /// Reads and checks a posted rule body against the registered systems.
    public static func parse(_ body: [UInt8]) throws -> FaultRuleDraft {
        try parse(body, systems: SystemRegistry.catalog)
    }
}

extension OAS {
    /// Every documented operation of the registered systems and the admin API.
    static var operations: [String: Object] { operations(SystemRegistry.catalog) }
}
