import HTTPServer

/// What every emulated system is given besides its seed: time, randomness, the outbox, the log,
/// and the operator's settings (command-line flags; nil leaves the seed's `settings`, then the default).
package struct MockEnvironment: Sendable {
    package var clock: any Clock
    package var random: any RandomSource
    package var outbox: Outbox
    package var logger: Logger
    /// The systems' settings by key (`SystemSetting.key`): flags, then after `resolved(with:)`
    /// the seed's and the defaults. Each system reads its own through typed accessors.
    package var settings: [String: SettingValue] = [:]
    /// The longest an admin request may wait (`?waitMs=`, docs/control-plane.md, "Arrange, isolate, verify": 30,000); `--max-wait-ms` lowers it.
    package var maxWaitMs = MockEnvironment.defaultMaxWaitMs
    /// Problems `/__mock/health` reports (shared by every copy, and by an app rebuilt on a new seed).
    package var health = HealthStatus()
    /// Multi-part changes (resets, swaps) as one write of the state file (shared by every copy).
    package var changeGroup = ChangeGroup()

    /// The default and the bound of `maxWaitMs`.
    package static let defaultMaxWaitMs = 30_000

    package init(clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource(),
                outbox: Outbox? = nil, logger: Logger = Logger()) {
        // Every reader shares one offset clock, so /__mock/clock moves them all (outbox included).
        let clock = clock as? OffsetClock ?? OffsetClock(base: clock)
        self.clock = clock
        self.random = random
        self.outbox = outbox ?? Outbox(clock: clock, logger: logger)
        self.logger = logger
    }

    /// These settings completed from the seed's (`seed`, by key), then the defaults of `settings`
    /// (every registered system's, handed in by the composition root).
    package func resolved(with seed: [String: SettingValue]?, settings: [SystemSetting]) -> MockEnvironment {
        var copy = self
        for setting in settings where copy.settings[setting.key] == nil {
            copy.settings[setting.key] = seed?[setting.key] ?? setting.defaultValue
        }
        return copy
    }
}
