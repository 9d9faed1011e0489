import EmulationKit

/// How the composition root builds a system from `seed.json`: the seed is the root's, the system
/// only declares its section's type.
extension EmulatedSystem {
    /// Its seed section read from a decoding `Seed`, under `seedKey`.
    static func decodeSection(from container: KeyedDecodingContainer<SeedKey>) throws -> any Sendable {
        try container.decode(SeedSection.self, forKey: SeedKey(seedKey))
    }

    /// An instance over its section of `seed`.
    static func make(seed: Seed, environment: MockEnvironment) -> any EmulatedSystem {
        Self(seed: seed.section(Self.self), environment: environment)
    }
}
