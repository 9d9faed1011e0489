#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EmulationKit
import HTTPServer

/// Recorded exchanges become mappings of this store: the body files first (`__files`, flushed),
/// then the mappings, all or none, the persistent ones written as every persistent mapping is
/// (`addSaving`).
extension StubStore {
    /// Makes, stores and returns the mappings `spec` turns `exchanges` into.
    func record(_ exchanges: [RecordedExchange], spec: RecordSpec) throws(StubChangeError) -> [StubMapping] {
        // A generator per id (it holds no state): no variable captured and mutated by the closure.
        let recorded = RecordedMappings.make(exchanges, spec: spec, now: now(), newId: {
            var generator = SystemRandomNumberGenerator()
            return UUIDText.random(using: &generator)
        })
        let bodies = recorded.compactMap(\.bodyFile)
        if !bodies.isEmpty {
            guard let root = filesRoot else {
                throw .notSaved(StubNotSaved(status: .conflict, description: "extractBodyCriteria writes bodies to __files: start the server with --mappings DIR"))
            }
            try writeBodies(bodies, under: root)
        }
        var mappings: [StubMapping] = []
        for (i, item) in recorded.enumerated() {
            do throws(StubProblem) {
                mappings.append(try StubMapping.decode(item.json, at: "/mappings/\(i)", filesRoot: filesRoot, newId: item.json["id"]?.string ?? "", templateAll: false))
            } catch {
                throw .refused(error)
            }
        }
        _ = try addSaving(mappings)
        return mappings
    }

    /// `--record-mappings`: one exchange, kept as a persistent mapping at once (as WireMock's
    /// `StubMappingJsonRecorder`, one per distinct request: a repeat of a recorded request is not
    /// recorded again). A failure is logged by the observer's owner, never answered.
    func recordAsItComes(_ exchange: RecordedExchange) {
        var spec = RecordSpec()
        spec.repeatsAsScenarios = false
        let request = RecordedMappings.requestPattern(exchange.request, spec: spec)
        if mappings.contains(where: { $0.json["request"] == request }) { return }
        _ = try? record([exchange], spec: spec)
    }

    private func writeBodies(_ bodies: [(name: String, bytes: [UInt8])], under root: String) throws(StubChangeError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .notSaved(StubNotSaved(status: .serviceUnavailable, description: "cannot create \(root): \(error)"))
        }
        var staged: [DurableFile.Staged] = []
        do {
            for body in bodies { staged.append(try DurableFile.stage(root + "/" + body.name, with: Data(body.bytes))) }
            try DurableFile.commit(staged)
        } catch {
            DurableFile.discard(staged)
            throw .notSaved(StubNotSaved(status: .serviceUnavailable, description: "nothing recorded: \(error)"))
        }
    }
}
