import EmulationKit

extension RowsApp: PersistentSystem {
    package var stateKey: String { "rows" }
    package var stateChanges: ChangeSignal { tokens.keyChanges }
    package func snapshot() -> SignedTokensSnapshot {
        var snapshot = tokens.snapshot
        accounts.keep(in: &snapshot) { ["password": $0] }
        return snapshot
    }

    package func restore(_ snapshot: SignedTokensSnapshot) throws {
        let changes = try AccountOverlay<String>.changes(in: snapshot) { _, fields in fields["password"] }
        try tokens.restore(snapshot)
        accounts.restore(changes)
    }
}

/// In the change log: the key and revocations as fields, each added account as its own record
/// (a change costs that account, not every account; 4,000 accounts took 24 s when the part was
/// written whole on each).
extension RowsApp: RecordedSystem {
    package func records(into sink: inout RecordSink) {
        tokens.recordKey(into: &sink)
        accounts.record(into: &sink) { ["password": $0] }
    }
}
