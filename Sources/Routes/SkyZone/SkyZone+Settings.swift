import EmulationKit

/// SkyZone's operator setting: the cap on accounts clients can create.
extension SkyZone {
    static let accountsSetting = SystemSetting(
        key: "maxSkyZoneAccounts", flag: "--max-skyzone-accounts", env: "MOCK_MAX_SKYZONE_ACCOUNTS", valueName: "N",
        help: "SkyZone accounts at most; more creations get 503 (default 100000)",
        kind: .count(1...10_000_000, defaultValue: 100_000), unit: "accounts")

    package static var settings: [SystemSetting] { [accountsSetting] }
}

extension MockEnvironment {
    /// SkyZone accounts (seeded and created); past it creation is refused.
    package var maxSkyZoneAccounts: Int? {
        get { settings[SkyZone.accountsSetting.key]?.number }
        set { settings[SkyZone.accountsSetting.key] = newValue.map(SettingValue.number) }
    }
}
