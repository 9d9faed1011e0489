#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import StatePersistence

/// The seed posted to `/__mock/reset`, as a part of the state file (`"seed"`: its JSON as a
/// string; null while the app runs the start seed). A start reads it before building anything
/// (`ActiveSeed.stored`) and runs that seed again, so every system, its accounts and its
/// settings come back as they were, not from `--seed`. It changes only with a swapped-in app,
/// which the state file takes as a new base.
final class ActiveSeed: PersistentSystem {
    let seedText: String?
    let stateChanges = ChangeSignal()
    var stateKey: String { ActiveSeed.key }
    static let key = "seed"

    init(_ app: MockApp) { seedText = app.runsGivenSeed ? app.seed.text : nil }

    func snapshot() -> String? { seedText }
    /// Read at the start by `stored`, before the app is built; nothing to put back here.
    func restore(_ snapshot: String?) throws {}

    /// The posted seed the state file at `path` runs, nil when none (or no file: the store's
    /// open reports any problem with it). Throws when the seed is there but does not load.
    static func stored(at path: String) throws -> Seed? {
        let realPath = ResolvedPath.of(path)
        guard let bytes = FileBytes.read(realPath),
              // The envelope writes each part on its own line: most files hold no posted seed.
              bytes.count > 0, contains(bytes, Array("\n\"\(key)\":\"".utf8)) else { return nil }
        struct Peek: Decodable {
            struct Systems: Decodable { var seed: String? }
            var systems: Systems
        }
        guard let text = (try? JSONDecoder().decode(Peek.self, from: Data(bytes)))?.systems.seed else { return nil }
        do {
            return try Seed.decode(Data(text.utf8), source: "\(path): systems.seed")
        } catch {
            throw StateFileError(path, "the seed it was reset to does not load: \(error)")
        }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = 0
        while i <= bytes.count - needle.count {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
