import EmulationKit

extension RowsApp: PersistentSystem {
    public var stateKey: String { "rows" }
    public var stateChanges: ChangeSignal { tokens.keyChanges }
    public func snapshot() -> SignedTokensSnapshot {
        var snapshot = tokens.snapshot
        accounts.keep(in: &snapshot) { ["password": $0] }
        return snapshot
    }

    public func restore(_ snapshot: SignedTokensSnapshot) throws {
        let changes = try AccountOverlay<String>.changes(in: snapshot) { _, fields in fields["password"] }
        try tokens.restore(snapshot)
        accounts.restore(changes)
    }
}
