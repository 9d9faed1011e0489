/// The hooks `POST /__mock/tokens/expire` and `/revoke` call on each system (API.md §6.1).
/// Defaults do nothing; a system with tokens implements them (the protocol declares them, so
/// calls through `any EmulatedSystem` reach the implementations).
extension EmulatedSystem {
    /// Makes one token (or, with nil, every token) of this system expired; returns how many.
    public func expireTokens(_ token: String?) -> Int { 0 }
    /// Makes one token (or, with nil, every token) of this system unknown; returns how many.
    public func revokeTokens(_ token: String?) -> Int { 0 }
}
