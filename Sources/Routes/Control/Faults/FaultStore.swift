import HTTPServer

/// The active fault rules, oldest first; the first rule that matches fires.
@usableFromInline package final class FaultStore: Sendable {
    private struct State {
        var rules: [FaultRule] = []
        var nextId = 1
    }

    private let state = Locked(State())
    /// Mirrors of the rules, set under the lock after every change and read without it, so a
    /// request costs no lock while no rule exists (the usual case).
    @usableFromInline let anyRules = LockFreeFlag()
    @usableFromInline let messageRules = LockFreeFlag()

    /// Rules kept at most: every request is checked against them in order, so their number is
    /// what an admin call can make each request cost (10,000 cut throughput 130-fold).
    package static let maxRules = 1000

    package init() {}

    /// Adds a checked rule and returns it with its id; nil when `maxRules` rules exist. The count
    /// is checked under the same lock as the add, so racing adds never pass the cap together.
    @discardableResult
    package func add(_ draft: FaultRuleDraft) -> FaultRule? {
        mutate { s in
            guard s.rules.count < FaultStore.maxRules else { return nil }
            let rule = FaultRule(id: s.nextId, method: draft.method, path: draft.path, system: draft.system,
                                 isMessageRule: draft.isMessageRule, times: draft.times, remaining: draft.times, action: draft.action)
            s.nextId += 1
            s.rules.append(rule)
            return rule
        }
    }

    /// Every active rule, oldest first.
    package var rules: [FaultRule] { state.withLock { $0.rules } }

    /// Removes one rule; false when no rule has that id.
    @discardableResult
    package func remove(id: Int) -> Bool {
        mutate { s in
            guard let i = s.rules.firstIndex(where: { $0.id == id }) else { return false }
            s.rules.remove(at: i)
            return true
        }
    }

    /// Removes every rule (ids keep counting, so an old id never names a new rule).
    package func removeAll() { mutate { $0.rules.removeAll() } }

    /// Whether any rule exists (no lock on Linux): callers skip `fire` and building its arguments.
    @inlinable package var hasRules: Bool { anyRules.isSet }

    /// The rule that fires on this HTTP request, counted down (and removed at 0), or nil.
    package func fire(method: String, path: String, system: String?) -> FaultRule? {
        guard anyRules.isSet else { return nil }
        return mutate { s in Self.fire(&s) { $0.matches(method: method, path: path, system: system) } }
    }

    /// The rule that would fire on this HTTP request, not counted down (the handshake asks
    /// before it decides who answers).
    package func peek(method: String, path: String, system: String?) -> FaultRule? {
        guard anyRules.isSet else { return nil }
        return state.withLock { s in s.rules.first { $0.matches(method: method, path: path, system: system) } }
    }

    /// Whether any rule is about WebSocket message types (the message's type is parsed only then).
    @inlinable package var hasMessageRules: Bool { messageRules.isSet }

    /// The rule that fires on a WebSocket message of this type to `system`, counted down, or nil.
    package func fire(messageType: String, system: String) -> FaultRule? {
        mutate { s in Self.fire(&s) { $0.matches(messageType: messageType, system: system) } }
    }

    /// Changes the rules under the lock and republishes the flags before unlocking, so the flags
    /// follow the changes in order.
    private func mutate<R>(_ body: (inout State) -> R) -> R {
        state.withLock { s in
            let result = body(&s)
            anyRules.set(!s.rules.isEmpty)
            messageRules.set(s.rules.contains { $0.isMessageRule })
            return result
        }
    }

    private static func fire(_ s: inout State, where matches: (FaultRule) -> Bool) -> FaultRule? {
        guard let i = s.rules.firstIndex(where: matches) else { return nil }
        var rule = s.rules[i]
        if let remaining = rule.remaining {
            rule.remaining = remaining - 1
            if remaining - 1 <= 0 { s.rules.remove(at: i) } else { s.rules[i] = rule }
        }
        return rule
    }
}
