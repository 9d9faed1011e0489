#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A part of the mock whose state is kept in the `--state` file: a system, the outbox, the clock.
///
/// `snapshot` and `restore` run on the state writer's thread and at start-up, never on an event
/// loop; `stateChanges` is signalled by the part itself after each committed change.
package protocol PersistentSystem: AnyObject, Sendable {
    /// Everything the part must remember across a restart; its JSON is the part's entry in the file.
    associatedtype Snapshot: Codable & Sendable
    /// The key under `"systems"` in the state file (`"musbooking"`, `"outbox"`); stable forever.
    var stateKey: String { get }
    /// The signal the part raises after each committed change.
    var stateChanges: ChangeSignal { get }
    /// A consistent copy of the current state (take the lock once, copy, leave).
    func snapshot() -> Snapshot
    /// Replaces the whole state with `snapshot`; throws `StateRestoreError` for a snapshot it cannot use.
    func restore(_ snapshot: Snapshot) throws
    /// The snapshot's JSON. The default uses `JSONEncoder`; a large part (the outbox) may write it
    /// by hand, as long as `Snapshot`'s `Decodable` reads it back.
    func encodeSnapshot() throws -> Data
}

extension PersistentSystem {
    package func encodeSnapshot() throws -> Data { try StateCoding.encoder().encode(snapshot()) }
}

/// Why a snapshot that decoded could still not be restored (an id that does not exist, …).
package struct StateRestoreError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A `PersistentSystem` with its types erased, as the store keeps them side by side.
package struct PersistentEntry: Sendable {
    package let key: String
    package let changes: ChangeSignal
    /// The snapshot's JSON (sorted keys, so an unchanged state writes identical bytes).
    package let encode: @Sendable () throws -> Data
    /// Decodes the part's snapshot from its place in the file; returns the restore to run later,
    /// so that nothing is restored unless every part decodes.
    package let decode: @Sendable (any Decoder) throws -> @Sendable () throws -> Void
    /// Takes the part's snapshot now; the closure puts it back (undo of a restore).
    package let keep: @Sendable () -> @Sendable () throws -> Void
    /// The part's members for the change log, when it records them one by one (`RecordedSystem`).
    package let records: (@Sendable (inout RecordSink) -> Void)?

    package init<S: PersistentSystem>(_ system: S) {
        key = system.stateKey
        if let recorded = system as? any RecordedSystem {
            records = { recorded.records(into: &$0) }
        } else {
            records = nil
        }
        changes = system.stateChanges
        encode = { [system] in try system.encodeSnapshot() }
        decode = { [system] decoder in
            let snapshot = try S.Snapshot(from: decoder)
            return { try system.restore(snapshot) }
        }
        keep = { [system] in
            let snapshot = system.snapshot()
            return { try system.restore(snapshot) }
        }
    }
}

/// The one JSON configuration every snapshot is written and read with.
package enum StateCoding {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
