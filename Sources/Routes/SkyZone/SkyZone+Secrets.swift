import EmulationKit

/// What the journal hides of SkyZone's traffic besides the common secrets.
extension SkyZone {
    /// The social login's `external-token`.
    package static var tokenFields: Set<String> { ["external-token"] }
}
