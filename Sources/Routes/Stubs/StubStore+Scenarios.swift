/// One scenario's state set from outside (`PUT /__admin/scenarios/{name}/state`).
extension StubStore {
    /// What setting a scenario's state did.
    enum ScenarioSetting: Sendable, Equatable {
        case done
        /// No loaded mapping is in that scenario.
        case unknownScenario
        /// No mapping of the scenario names that state (WireMock's 422).
        case unknownState(possible: [String])
    }

    /// Sets scenario `name` to `state`, one its mappings name (as WireMock's `Scenario.setState`
    /// checks), or back to `Started` when nil.
    func setScenario(_ name: String, to state: String?) -> ScenarioSetting {
        self.state.withLock { s in
            guard s.scenarios[name] != nil else { return .unknownScenario }
            // Checked and set in one step: the scenario's mappings cannot change in between.
            if let state {
                let possible = StubStore.possibleStates(s.entries.lazy.map(\.mapping).filter { $0.scenarioName == name })
                guard possible.contains(state) else { return .unknownState(possible: possible) }
            }
            s.scenarios[name] = state ?? StubStore.startedState
            // A match running meanwhile that read this scenario matches again (StubStore+Matching).
            s.scenarioVersion += 1
            return .done
        }
    }
}
