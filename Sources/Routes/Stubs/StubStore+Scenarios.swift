/// One scenario's state set from outside (`PUT /__admin/scenarios/{name}/state`).
extension StubStore {
    /// Sets scenario `name` to `state` (back to `Started` when nil), as WireMock does: any state
    /// is taken, named by a mapping or not. False when no loaded mapping is in that scenario.
    package func setScenario(_ name: String, to state: String?) -> Bool {
        self.state.withLock { s in
            guard s.scenarios[name] != nil else { return false }
            s.scenarios[name] = state ?? StubStore.startedState
            // A match running meanwhile that read this scenario matches again (StubStore+Matching).
            s.scenarioVersion += 1
            return true
        }
    }
}
