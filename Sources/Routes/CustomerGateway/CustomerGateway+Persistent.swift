/// The gateway in the state file: its signing key (and revocations), as the rows app's. No
/// message presents a token back, so this keeps `isIssued` (and the console) true across a restart.
extension CustomerGateway: PersistentSystem {
    public var stateKey: String { "gateway" }
    public var stateChanges: ChangeSignal { tokens.keyChanges }
    public func snapshot() -> SignedTokensSnapshot {
        var snapshot = tokens.snapshot
        accounts.keep(in: &snapshot) { ["customerId": $0.customerId, "email": $0.email, "password": $0.password] }
        return snapshot
    }

    public func restore(_ snapshot: SignedTokensSnapshot) throws {
        let changes = try AccountOverlay<CustomerGatewaySeed.Account>.changes(in: snapshot) { key, fields in
            guard let id = fields["customerId"], let email = fields["email"], let password = fields["password"], email.lowercased() == key else { return nil }
            return CustomerGatewaySeed.Account(customerId: id, email: email, password: password)
        }
        try tokens.restore(snapshot)
        accounts.restore(changes)
    }
}
