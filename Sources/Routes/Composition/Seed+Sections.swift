import GatewaySystem
import MusbookingSystem
import RSSchoolSystem
import RowsSystem
import SkyZoneSystem

/// Each registered system's section by name, for tests and embedders (the registry's systems only).
extension Seed {
    /// The Rows app section.
    package var rows: RowsSeed { section(RowsApp.self) }
}

extension Seed {
    /// The SkyZone section.
    package var skyzone: SkyZoneSeed { section(SkyZone.self) }
}

extension Seed {
    /// The Musbooking section.
    package var musbooking: MusbookingSeed { section(Musbooking.self) }
}

extension Seed {
    /// The Customer gateway section.
    package var customerGateway: CustomerGatewaySeed { section(CustomerGateway.self) }
}

extension Seed {
    /// The RSSchool section.
    package var rsschool: RSSchoolSeed { section(RSSchool.self) }
}
