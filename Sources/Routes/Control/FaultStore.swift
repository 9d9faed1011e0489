import HTTPServer

/// The active fault rules, oldest first; the first rule that matches fires.
public final class FaultStore: Sendable {
    private struct State {
        var rules: [FaultRule] = []
        var nextId = 1
        var hasGatewayRules = false

        mutating func refresh() { hasGatewayRules = rules.contains { $0.isGatewayRule } }
    }

    private let state = Locked(State())

    public init() {}

    /// Adds a checked rule and returns it with its id.
    @discardableResult
    public func add(_ draft: FaultRuleDraft) -> FaultRule {
        state.withLock { s in
            let rule = FaultRule(id: s.nextId, method: draft.method, path: draft.path, system: draft.system,
                                 times: draft.times, remaining: draft.times, action: draft.action)
            s.nextId += 1
            s.rules.append(rule)
            s.refresh()
            return rule
        }
    }

    /// Every active rule, oldest first.
    public var rules: [FaultRule] { state.withLock { $0.rules } }

    /// Removes one rule; false when no rule has that id.
    @discardableResult
    public func remove(id: Int) -> Bool {
        state.withLock { s in
            guard let i = s.rules.firstIndex(where: { $0.id == id }) else { return false }
            s.rules.remove(at: i)
            s.refresh()
            return true
        }
    }

    /// Removes every rule (ids keep counting, so an old id never names a new rule).
    public func removeAll() { state.withLock { $0.rules.removeAll(); $0.hasGatewayRules = false } }

    /// The rule that fires on this HTTP request, counted down (and removed at 0), or nil.
    /// One uncontended lock when no rule exists: this runs on every request.
    func fire(method: String, path: String, system: String?) -> FaultRule? {
        state.withLock { s in
            guard !s.rules.isEmpty else { return nil }
            return Self.fire(&s) { $0.matches(method: method, path: path, system: system) }
        }
    }

    /// Whether any rule is about gateway messages (the message's type is parsed only then).
    var hasGatewayRules: Bool { state.withLock { $0.hasGatewayRules } }

    /// The rule that fires on a gateway message of this type, counted down, or nil.
    func fire(messageType: String) -> FaultRule? {
        state.withLock { s in Self.fire(&s) { $0.matches(messageType: messageType) } }
    }

    private static func fire(_ s: inout State, where matches: (FaultRule) -> Bool) -> FaultRule? {
        guard let i = s.rules.firstIndex(where: matches) else { return nil }
        var rule = s.rules[i]
        if let remaining = rule.remaining {
            rule.remaining = remaining - 1
            if remaining - 1 <= 0 { s.rules.remove(at: i); s.refresh() } else { s.rules[i] = rule }
        }
        return rule
    }
}
