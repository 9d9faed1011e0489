import EmulationKit

/// What the journal hides of CustomerGateway's traffic besides the common secrets.
extension CustomerGateway {
    /// The token a login answers with (`api_token`).
    package static var tokenFields: Set<String> { ["api_token"] }
}
