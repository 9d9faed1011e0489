import EmulationKit
import GatewaySystem
import MusbookingSystem
import RSSchoolSystem
import RowsSystem
import SkyZoneSystem

/// Every emulated system, in the order the banner, the console and the documents list them: the
/// one place that names them. Only this composition root reads it; everything else is handed
/// `catalog` (or the running systems) as a value.
package enum SystemRegistry {
    /// The systems' types; a sixth system is one more entry here.
    package static let types: [any EmulatedSystem.Type] = [
        RowsApp.self, CustomerGateway.self, SkyZone.self, Musbooking.self, RSSchool.self,
    ]

    /// The registry as the value the control plane, seed decoding and settings are given.
    package static let catalog = SystemCatalog(types)

    /// Every system's name (docs/control-plane.md), in order.
    package static var names: [String] { catalog.names }

    /// Every system's operator settings (flags and seed `settings` keys), in order.
    package static var settings: [SystemSetting] { catalog.settings }

    /// One instance of each system over `seed`.
    static func makeSystems(seed: Seed, environment: MockEnvironment) -> [any EmulatedSystem] {
        types.map { $0.make(seed: seed, environment: environment) }
    }
}
