/// The outbox in the state file: every kept SMS and e-mail, oldest first.
public struct OutboxSnapshot: Codable, Sendable, Equatable {
    public var sms: [SentSMS]
    public var emails: [SentEmail]
}

extension Outbox: PersistentSystem {
    public var stateKey: String { "outbox" }
    public var stateChanges: ChangeSignal { messages.changes }

    public func snapshot() -> OutboxSnapshot {
        let m = messages.value
        return OutboxSnapshot(sms: m.sms, emails: m.emails)
    }

    /// Keeps the newest `capacity` of each kind, as sending them would have.
    public func restore(_ snapshot: OutboxSnapshot) throws {
        messages.replace(Messages(sms: Array(snapshot.sms.suffix(capacity)), emails: Array(snapshot.emails.suffix(capacity))))
    }
}
