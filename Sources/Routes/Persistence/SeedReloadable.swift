import HTTPServer

/// A system that can take a new seed while it runs (`--watch`): it replaces what it derived
/// from the seed and resets its state to it. `seed` is the whole file; the system takes its section.
public protocol SeedReloadable: AnyObject, Sendable {
    func reload(seed: Seed)
}

extension MockApp {
    /// Every part whose state the `--state` file keeps: the outbox and each persistent system.
    public var persistentParts: [any PersistentSystem] {
        var parts: [any PersistentSystem] = [environment.outbox]
        for system in systems {
            if let part = system as? any PersistentSystem { parts.append(part) }
        }
        return parts
    }

    /// Puts every system on `seed` and resets all state to it. Returns the systems that cannot
    /// take a new seed yet: they are reset to the seed they started with.
    @discardableResult
    public func reload(seed: Seed) -> [String] {
        var kept: [String] = []
        for system in systems {
            if let reloadable = system as? any SeedReloadable {
                reloadable.reload(seed: seed)
            } else {
                kept.append(String(describing: type(of: system)))
            }
        }
        reset()
        return kept
    }
}
