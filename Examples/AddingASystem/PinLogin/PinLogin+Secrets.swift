import EmulationKit

/// What the journal hides of the PIN login's traffic: the PIN (`{"pin": "***"}`).
extension PinLogin {
    package static var secretFields: Set<String> { ["pin"] }
}
