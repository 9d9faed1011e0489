/// The gateway in the state file: its signing key (and revocations), as the rows app's. No
/// message presents a token back, so this keeps `isIssued` (and the console) true across a restart.
extension CustomerGateway: PersistentSystem {
    public var stateKey: String { "gateway" }
    public var stateChanges: ChangeSignal { tokens.keyChanges }
    public func snapshot() -> SignedTokensSnapshot { tokens.snapshot }
    public func restore(_ snapshot: SignedTokensSnapshot) throws { try tokens.restore(snapshot) }
}
