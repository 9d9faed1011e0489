import EmulationKit

extension MockApp {
    /// Every part whose state the `--state` file keeps: the outbox, each persistent system, the
    /// seed posted to `/__mock/reset` (`ActiveSeed`), and the clock when it has state to keep (an offset clock that conforms to `PersistentSystem`
    /// under the key `"clock"` is kept with no change here).
    package var persistentParts: [any PersistentSystem] {
        var parts: [any PersistentSystem] = [environment.outbox]
        if let clock = environment.clock as? any PersistentSystem { parts.append(clock) }
        for system in systems {
            if let part = system as? any PersistentSystem { parts.append(part) }
        }
        parts.append(ActiveSeed(self))
        return parts
    }
}
