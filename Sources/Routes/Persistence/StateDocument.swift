#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// `GET`/`PUT /__mock/state` (docs/control-plane.md, "Arrange, isolate, verify"): every part's state, the outbox and the clock offset
/// as one document in the `--state` file's format. A replacement that does not load is refused
/// with the place named, and nothing changes: every part decodes first, then each is restored,
/// and a part that refuses its snapshot puts the ones before it back.
package struct StateDocument: Sendable {
    package let parts: [any PersistentSystem]
    package let clock: OffsetClock

    package init(parts: [any PersistentSystem], clock: OffsetClock) {
        self.parts = parts
        self.clock = clock
    }

    /// Over an app's parts: the systems first, then the outbox and the clock (which an app put
    /// in another's place shares with it), so a system that refuses its part is found before
    /// anything shared is touched.
    package init(systems: [any EmulatedSystem], outbox: Outbox, clock: OffsetClock) {
        self.init(parts: systems.compactMap { $0 as? any PersistentSystem } + [outbox], clock: clock)
    }

    /// Why a document was refused (400 with this text).
    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    private var entries: [PersistentEntry] { parts.map { PersistentEntry($0) } + [PersistentEntry(ClockPart(clock))] }

    package func encode() throws -> Data {
        let encoded = try entries.map { (key: $0.key, json: try $0.encode()) }
        return StateFile.envelope(savedAt: clock.now(), parts: encoded)
    }

    package func replace(with data: Data) throws {
        let entries = self.entries
        let loaded: StateFile.Loaded
        do {
            loaded = try StateFile.decode(data, path: "state document", entries: entries)
        } catch {
            throw Refused(description: "\(error)")
        }
        if let unknown = loaded.unknownKeys.first {
            throw Refused(description: "state document: at systems.\(unknown): no such part (parts: \(entries.map(\.key).sorted().joined(separator: ", ")))")
        }
        let given = Set(loaded.restores.map(\.key))
        if let missing = entries.map(\.key).sorted().first(where: { !given.contains($0) }) {
            throw Refused(description: "state document: systems.\(missing) is missing (a document replaces every part; take one from GET /__mock/state)")
        }
        var undo: [@Sendable () throws -> Void] = []
        // In the parts' order (not the document's), so the caller decides what is touched first.
        for entry in entries {
            guard let restore = loaded.restores.first(where: { $0.key == entry.key }) else { continue }
            let previous = entry.keep()
            do {
                try restore.run()
                undo.append(previous)
            } catch {
                for back in undo.reversed() { try? back() }
                throw Refused(description: "state document: at systems.\(restore.key): \(error)")
            }
        }
    }
}

/// The clock's offset as a part of the state document (not of the `--state` file: a restart
/// starts on real time).
final class ClockPart: PersistentSystem {
    package struct Snapshot: Codable, Sendable {
        package var offsetSeconds: Double
    }

    package let clock: OffsetClock
    package let stateChanges = ChangeSignal()
    package var stateKey: String { "clock" }

    package init(_ clock: OffsetClock) { self.clock = clock }

    package func snapshot() -> Snapshot { Snapshot(offsetSeconds: clock.offsetSeconds) }

    package func restore(_ snapshot: Snapshot) throws {
        let seconds = snapshot.offsetSeconds
        guard seconds.isFinite, seconds >= 0, seconds <= OffsetClock.maxOffsetSeconds else {
            throw StateRestoreError("offsetSeconds must be from 0 to \(Int(OffsetClock.maxOffsetSeconds))")
        }
        clock.reset()
        if seconds > 0 { clock.advance(by: seconds) }
    }
}
