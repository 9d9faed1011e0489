import HTTPServer

/// Accounts of a system whose seed accounts are read on its hot path (a login): the seed's,
/// immutable and read without a lock, plus the ones a test added or removed through
/// `/__mock/accounts`. The lock is taken only once something was changed (until a reset).
/// The lookup is inlinable so the systems that read it on a login get it specialised.
@usableFromInline package final class AccountOverlay<Value: Sendable>: Sendable {
    @usableFromInline package let seed: [String: Value]
    @usableFromInline package let changes = Locked<Changes>(Changes())
    @usableFromInline package struct Changes {
        @usableFromInline package var added: [String: Value] = [:]
        @usableFromInline package var removed: Set<String> = []
        /// Added accounts changed since the change log last looked (`record`).
        package var touched = TouchedKeys()
    }
    @usableFromInline package let changed = LockFreeFlag()

    package init(_ seed: [String: Value]) { self.seed = seed }

    @inlinable package subscript(key: String) -> Value? {
        guard changed.isSet else { return seed[key] }
        return changes.withLock { c in c.removed.contains(key) ? nil : c.added[key] ?? seed[key] }
    }

    /// Every account now, by key.
    package var all: [String: Value] {
        guard changed.isSet else { return seed }
        return changes.withLock { c in
            seed.filter { !c.removed.contains($0.key) }.merging(c.added) { _, added in added }
        }
    }

    /// Adds one; false (and nothing changed) when the key has an account.
    package func add(_ key: String, _ value: Value) -> Bool {
        changes.withLock { c in
            if c.added[key] != nil || (seed[key] != nil && !c.removed.contains(key)) { return false }
            c.added[key] = value
            c.removed.remove(key)
            c.touched.touch(key)
            changed.set(true)
            return true
        }
    }

    /// Removes one; false when there is none.
    package func remove(_ key: String) -> Bool {
        changes.withLock { c in
            if c.added.removeValue(forKey: key) != nil {
                c.touched.touch(key)
                return true
            }
            guard seed[key] != nil, c.removed.insert(key).inserted else { return false }
            changed.set(true)
            return true
        }
    }

    /// What a snapshot keeps: the accounts added (as `fields` writes each) and the seed's removed.
    package func keep(in snapshot: inout SignedTokensSnapshot, _ fields: (Value) -> [String: String]) {
        let (added, removed) = changes.withLock { ($0.added, $0.removed) }
        snapshot.addedAccounts = added.isEmpty ? nil : added.mapValues(fields)
        snapshot.removedAccounts = removed.isEmpty ? nil : removed.sorted()
    }

    /// The changes a snapshot holds, each added account read by `value` (nil: refused, named).
    package static func changes(in snapshot: SignedTokensSnapshot, _ value: (String, [String: String]) -> Value?) throws -> (added: [String: Value], removed: Set<String>) {
        var added: [String: Value] = [:]
        for (key, fields) in snapshot.addedAccounts ?? [:] {
            guard let account = value(key, fields) else { throw StateRestoreError("addedAccounts.\(key): not an account this system can read") }
            added[key] = account
        }
        return (added, Set(snapshot.removedAccounts ?? []))
    }

    /// Puts back changes read by `changes(in:)`.
    package func restore(_ restored: (added: [String: Value], removed: Set<String>)) {
        changes.withLock { c in
            c.added = restored.added
            c.removed = restored.removed.filter { seed[$0] != nil }
            c.touched.touchAll()
            changed.set(!c.added.isEmpty || !c.removed.isEmpty)
        }
    }

    /// Back to the seed's accounts.
    package func reset() {
        changes.withLock { c in
            c.added = [:]
            c.removed = []
            c.touched.touchAll()
            changed.set(false)
        }
    }

    /// The change log's records: the added accounts one by one (`addedAccounts`, an object by key,
    /// as the snapshot writes it; only those changed since the last look), the removed seed ones whole.
    package func record(into sink: inout RecordSink, _ fields: (Value) -> [String: String]) where Value: Equatable {
        changes.withLock { c in
            let touched = c.touched.take()
            let added = c.added
            sink.keyed("addedAccounts", touched: touched, count: added.count, all: { added.lazy.map { ($0.key, $0.value) } },
                       lookup: { added[$0] }, asObject: true) { _, value in AccountOverlay.object(fields(value)) }
            var removed: [UInt8] = []
            RecordImage.appendStrings(c.removed.sorted(), to: &removed)
            sink.field("removedAccounts", json: removed)
        }
    }

    /// `{"k":"v",…}`, keys sorted (as the snapshot encoder writes them).
    private static func object(_ fields: [String: String]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, key) in fields.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(key, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(fields[key] ?? "", to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
