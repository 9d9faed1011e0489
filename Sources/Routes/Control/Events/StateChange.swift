import HTTPServer

/// A change of state a test can make through the admin API, as `/__mock/events` names it (the
/// event's `kind`). The console follows each one live; so can a test.
package enum StateChange: String, Sendable, CaseIterable {
    case faultAdded = "fault.added"
    case faultRemoved = "fault.removed"
    /// A rule with `times` fired its last time and is gone.
    case faultUsedUp = "fault.usedUp"
    case accountCreated = "account.created"
    case accountDeleted = "account.deleted"
    case instanceStarted = "instance.started"
    case instanceStopped = "instance.stopped"
    /// `PUT /__mock/state` put a whole state in place.
    case stateReplaced = "state.replaced"
    /// `DELETE /__mock/sms` or `/__mock/emails`.
    case outboxCleared = "outbox.cleared"
    case journalCleared = "journal.cleared"
    /// A stub mapping was added, changed or removed.
    case stubsChanged = "stubs.changed"
}

extension ControlPlane {
    /// Publishes `change` on the events stream; `data` is built only when someone listens.
    package func publish(_ change: StateChange, _ data: () -> JSONValue = { [:] }) {
        events.publish(kind: change.rawValue, at: clock.now(), data: data)
    }
}
