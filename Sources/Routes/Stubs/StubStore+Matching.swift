/// Matching a request outside the store's lock.
///
/// The lock is held only to take a snapshot of the index and the scenarios' states (copies of
/// copy-on-write values: O(1)) and, after the match, to count the hit and move the scenario. The
/// match itself (regular expressions, JSON comparisons) runs with no lock held, so a slow one
/// holds up its own connection only: other requests and every admin call go on meanwhile.
///
/// The rule for a change made while a match runs: the match commits only when what it read is
/// unchanged, that is, no mapping was added, changed or removed, and no scenario it looked at
/// moved (when no scenario decided it, a scenario's move does not matter). Otherwise it matches
/// again on a new snapshot, so every answer is the one the store gives at the moment it is
/// committed. After `maxMatchAttempts` the last match is answered as it was found, as WireMock
/// answers every match (it takes no lock): its hit is counted if its mapping is still loaded, and
/// its scenario moved only if it is still in the state the mapping requires.
extension StubStore {
    /// Tries before a match is answered from a snapshot the store has moved past.
    static let maxMatchAttempts = 4

    /// What a match reads: the path index, the pattern mappings whose URL matcher accepted the
    /// request, and the scenarios' states, with the versions they had.
    struct MatchView: Sendable {
        let exact: StubPathTable
        let patterns: [Entry]
        let scenarios: [String: String]
        let indexVersion: Int
        let scenarioVersion: Int

        /// Under the state's lock; `patterns`: the candidates of the pattern sets.
        init(_ s: State, patterns: [Entry]) {
            exact = s.exact
            self.patterns = patterns
            scenarios = s.scenarios
            indexVersion = s.indexVersion
            scenarioVersion = s.scenarioVersion
        }
    }

    /// The mapping that answers `request`, its hit counted and its scenario moved; nil when none
    /// matches. Takes the state's lock twice per attempt, never across the match.
    /// `look`: the pattern sets' candidates from the path filter's pass outside the lock, used
    /// when the index has not changed since (else found again from the current sets: rare).
    func match(_ request: StubRequest, look: StubPathFilter.Look) -> Entry? {
        var attempt = 1
        while true {
            let view = state.withLock { s in
                let patterns = look.generation == filter.generation ? look.patterns
                    : s.patternSets().candidates(path: request.path, url: request.url, caches: nil).entries
                return MatchView(s, patterns: patterns)
            }
            matchProbe?(request)
            let (found, readScenario) = best(view, for: request)
            // Nothing matched: nothing to count, and the answer is the snapshot's.
            guard let entry = found else { return nil }
            let last = attempt >= StubStore.maxMatchAttempts
            let committed = state.withLock { s in
                StubStore.commit(entry, in: &s, read: view, readScenario: readScenario, last: last)
            }
            if committed { return entry }
            attempt += 1
        }
    }

    /// Under the state's lock: counts the hit and moves the scenario when the match still holds
    /// (or it is the last attempt, then whatever of it still holds); false: match again.
    private static func commit(_ entry: Entry, in s: inout State, read view: MatchView, readScenario: Bool, last: Bool) -> Bool {
        let mapping = entry.mapping
        let fresh = s.indexVersion == view.indexVersion && (!readScenario || s.scenarioVersion == view.scenarioVersion)
        if !fresh && !last { return false }
        // A removed mapping gets no hit count (its counter went with it); a forgotten scenario no state.
        let loaded = fresh || s.entries.contains { $0.mapping.id == mapping.id }
        if loaded { s.hits[mapping.id, default: 0] += 1 }
        if let scenario = mapping.scenarioName, let next = mapping.newScenarioState, let current = s.scenarios[scenario],
           fresh || mapping.requiredScenarioState == nil || mapping.requiredScenarioState == current {
            s.scenarios[scenario] = next
            s.scenarioVersion += 1
        }
        return true
    }
}
