import EmulationKit

/// What the journal hides of RSSchool's traffic besides the common secrets.
extension RSSchool {
    /// The secure endpoint's `sequence`.
    package static var secretFields: Set<String> { ["sequence"] }
}
