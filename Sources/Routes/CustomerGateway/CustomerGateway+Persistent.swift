import HTTPServer
import EmulationKit

/// The gateway in the state file: its signing key (and revocations), as the rows app's. No
/// message presents a token back, so this keeps `isIssued` (and the console) true across a restart.
extension CustomerGateway: PersistentSystem {
    package var stateKey: String { "gateway" }
    package var stateChanges: ChangeSignal { tokens.keyChanges }
    package func snapshot() -> SignedTokensSnapshot {
        var snapshot = tokens.snapshot
        accounts.keep(in: &snapshot) { ["customerId": $0.customerId, "email": $0.email, "password": $0.password] }
        return snapshot
    }

    package func restore(_ snapshot: SignedTokensSnapshot) throws {
        let changes = try AccountOverlay<CustomerGatewaySeed.Account>.changes(in: snapshot) { key, fields in
            guard let id = fields["customerId"], let email = fields["email"], let password = fields["password"], email.lowercased() == key else { return nil }
            return CustomerGatewaySeed.Account(customerId: id, email: email, password: password)
        }
        try tokens.restore(snapshot)
        accounts.restore(changes)
    }
}

extension CustomerGateway {
    /// The reply to a message whose change the state file did not take (`--state`, a full
    /// disk): a `CUSTOMER_ERROR` like any other, its description saying why (the gateway has no hint header).
    package func stateRefusal(to message: WebSocketPayload, reason: String) -> String? {
        let parsed = JSONValue.parse(message.bytes)
        var event = GatewayReply.Event.empty
        event.type = parsed?["type"]?.string ?? ""
        event.email = parsed?["data"]?["email"]?.string ?? ""
        environment.logger.warning("customer gateway: a \(event.type) change was not saved to the state file; answered CUSTOMER_ERROR server.stateNotSaved")
        return String(decoding: GatewayReply.error(sequenceId: .init(parsed?["sequence_id"], random: environment.random), code: "server.stateNotSaved",
                                  description: "The change could not be saved to the state file (--state): \(reason). It is kept in memory and written once the file can be; GET /__mock/health says degraded meanwhile.",
                                  event: event, random: environment.random), as: UTF8.self)
    }
}

/// In the change log: the key and revocations as fields, each added account as its own record.
extension CustomerGateway: RecordedSystem {
    package func records(into sink: inout RecordSink) {
        tokens.recordKey(into: &sink)
        accounts.record(into: &sink) { ["customerId": $0.customerId, "email": $0.email, "password": $0.password] }
    }
}
