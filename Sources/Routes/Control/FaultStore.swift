import HTTPServer

/// The active fault rules, oldest first; the first rule that matches fires.
public final class FaultStore: Sendable {
    private struct State {
        var rules: [FaultRule] = []
        var nextId = 1
    }

    private let state = Locked(State())
    /// Mirrors of the rules, set under the lock after every change and read without it, so a
    /// request costs no lock while no rule exists (the usual case).
    private let anyRules = LockFreeFlag()
    private let gatewayRules = LockFreeFlag()

    public init() {}

    /// Adds a checked rule and returns it with its id.
    @discardableResult
    public func add(_ draft: FaultRuleDraft) -> FaultRule {
        mutate { s in
            let rule = FaultRule(id: s.nextId, method: draft.method, path: draft.path, system: draft.system,
                                 times: draft.times, remaining: draft.times, action: draft.action)
            s.nextId += 1
            s.rules.append(rule)
            return rule
        }
    }

    /// Every active rule, oldest first.
    public var rules: [FaultRule] { state.withLock { $0.rules } }

    /// Removes one rule; false when no rule has that id.
    @discardableResult
    public func remove(id: Int) -> Bool {
        mutate { s in
            guard let i = s.rules.firstIndex(where: { $0.id == id }) else { return false }
            s.rules.remove(at: i)
            return true
        }
    }

    /// Removes every rule (ids keep counting, so an old id never names a new rule).
    public func removeAll() { mutate { $0.rules.removeAll() } }

    /// Whether any rule exists (no lock on Linux): callers skip `fire` and building its arguments.
    var hasRules: Bool { anyRules.isSet }

    /// The rule that fires on this HTTP request, counted down (and removed at 0), or nil.
    func fire(method: String, path: String, system: String?) -> FaultRule? {
        guard anyRules.isSet else { return nil }
        return mutate { s in Self.fire(&s) { $0.matches(method: method, path: path, system: system) } }
    }

    /// Whether any rule is about gateway messages (the message's type is parsed only then).
    var hasGatewayRules: Bool { gatewayRules.isSet }

    /// The rule that fires on a gateway message of this type, counted down, or nil.
    func fire(messageType: String) -> FaultRule? {
        mutate { s in Self.fire(&s) { $0.matches(messageType: messageType) } }
    }

    /// Changes the rules under the lock and republishes the flags before unlocking, so the flags
    /// follow the changes in order.
    private func mutate<R>(_ body: (inout State) -> R) -> R {
        state.withLock { s in
            let result = body(&s)
            anyRules.set(!s.rules.isEmpty)
            gatewayRules.set(s.rules.contains { $0.isGatewayRule })
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
