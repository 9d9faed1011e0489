import EmulationKit

/// The `settings` section of `seed.json`: the same knobs as the systems' flags, which win.
package struct MockSettings: Decodable, Sendable, Equatable {
    /// By `SystemSetting.key`.
    package var values: [String: SettingValue]

    package init(_ values: [String: SettingValue] = [:]) { self.values = values }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SeedKey.self)
        values = [:]
        for setting in (decoder.systemCatalog ?? SystemRegistry.catalog).settings {
            let key = SeedKey(setting.key)
            switch setting.kind {
            case .digits: values[setting.key] = try container.decodeIfPresent(String.self, forKey: key).map(SettingValue.text)
            case .count: values[setting.key] = try container.decodeIfPresent(Int.self, forKey: key).map(SettingValue.number)
            }
        }
    }
}
