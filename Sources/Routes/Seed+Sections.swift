import GatewaySystem
import MusbookingSystem
import RSSchoolSystem
import RowsSystem
import SkyZoneSystem

/// Each registered system's section by name, for tests and embedders (the registry's systems only).
extension Seed {
    /// The Rows app section.
    public var rows: RowsSeed { section(RowsApp.self) }
}

extension Seed {
    /// The SkyZone section.
    public var skyzone: SkyZoneSeed { section(SkyZone.self) }
}

extension Seed {
    /// The Musbooking section.
    public var musbooking: MusbookingSeed { section(Musbooking.self) }
}

extension Seed {
    /// The Customer gateway section.
    public var customerGateway: CustomerGatewaySeed { section(CustomerGateway.self) }
}

extension Seed {
    /// The RSSchool section.
    public var rsschool: RSSchoolSeed { section(RSSchool.self) }
}
