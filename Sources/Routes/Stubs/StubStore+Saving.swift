#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// Why a change of the stubs was not made (and nothing of it was): a refused mapping, or a file
/// the `--mappings` folder would not take.
package enum StubChangeError: Error, Sendable {
    case refused(StubProblem)
    case notSaved(StubNotSaved)

    /// The answer: WireMock's error shape with `X-Mock-Hint`.
    package var response: HTTPResponse {
        switch self {
        case .refused(let problem): return problem.response
        case .notSaved(let failure): return failure.response
        }
    }
}

/// A mapping the folder did not take: its file could not be written or removed (503), or it
/// lives in a file of several mappings, which the server never rewrites (409, as WireMock refuses it).
package struct StubNotSaved: Error, Sendable, CustomStringConvertible {
    package let status: HTTPStatus
    package let description: String

    package var response: HTTPResponse {
        let body: JSONValue = ["errors": [["code": 10, "title": "Mapping not saved", "detail": .string(description)]]]
        return HTTPResponse.json(status, bytes: Array(body.jsonText.utf8)).hinted(StubProblem.ascii(description))
    }
}

/// `persistent: true` and `POST /__admin/mappings/save` under `--mappings DIR`: a mapping is in
/// its file (`StubMappingFile`) before its change is made and answered, so a restart finds it.
/// Every file of a change is written and flushed first, then renamed into place, so a folder that
/// refuses one leaves the files and the stubs as they were. Without a folder a persistent mapping
/// is kept in memory, and the answer says so (`notSavedHint`).
extension StubStore {
    /// The hint of an answer whose `persistent` mapping is kept in memory only.
    package static let notSavedHint = "not saved: this server has no mappings folder; start it with --mappings DIR to keep stubs with \"persistent\": true"

    /// Adds mappings (`POST /__admin/mappings`, an import), all or none, each persistent one
    /// written to the folder first. `keepOnly` (an import with `deleteAllNotInImport`: the ids it
    /// names): every other mapping is removed in the same step, after the files are written, so a
    /// refused import removes nothing. Returns `notSavedHint` when a persistent one is kept in memory only.
    func addSaving(_ mappings: [StubMapping], replaceExisting: Bool = false, keepOnly: Set<String>? = nil) throws(StubChangeError) -> String? {
        let persistent = mappings.filter(\.isPersistent)
        let removed = try writes.withLock { _ throws(StubChangeError) -> [Entry] in
            if let problem = insert(mappings, fromFiles: false, replaceExisting: replaceExisting, keepOnly: keepOnly, dryRun: true) { throw .refused(problem) }
            let before = keepOnly == nil ? [] : state.withLock { $0.entries }.filter { !(keepOnly?.contains($0.mapping.id) ?? true) }
            let written = persistent.isEmpty ? [:] : try files.map { files throws(StubChangeError) in try write(persistent, in: files) } ?? [:]
            // Checked above, under the same lock: nothing can have changed since.
            if let problem = insert(mappings, fromFiles: false, replaceExisting: replaceExisting, keepOnly: keepOnly, written: written) { throw .refused(problem) }
            let ids = Set(mappings.map(\.id))
            return before.filter { !ids.contains($0.mapping.id) }
        }
        if !removed.isEmpty { report(.removed(removed.map { StubReference(id: $0.mapping.id, name: $0.mapping.name) })) }
        if !mappings.isEmpty { report(.added(mappings.map { StubReference(id: $0.id, name: $0.name) })) }
        return persistent.isEmpty || files != nil ? nil : StubStore.notSavedHint
    }

    /// Replaces the mapping with `id` (`PUT /__admin/mappings/{id}`), writing it to its file
    /// first when it is persistent; false when there is none. An edit without `persistent: true`
    /// changes memory only and leaves any file as it is (as WireMock).
    func replaceSaving(id: String, with mapping: StubMapping) throws(StubChangeError) -> (found: Bool, hint: String?) {
        // The pattern cap, before the lock the change takes: a concurrent add can pass it by one mapping at most.
        let others = state.withLock { s in s.entries.filter { $0.mapping.id != id }.map(\.mapping) }
        if let problem = StubStore.patternProblem(others, [mapping]) { throw .refused(problem) }
        guard mapping.isPersistent, let files else {
            let found = replace(id: id, with: mapping)
            return (found, found && mapping.isPersistent ? StubStore.notSavedHint : nil)
        }
        let found = try writes.withLock { _ throws(StubChangeError) -> Bool in
            guard state.withLock({ s in s.entries.contains { $0.mapping.id == id } }) else { return false }
            let written = try write([mapping], in: files)
            return swap(id: id, with: mapping, written: written[mapping.id])
        }
        if found { report(.changed(StubReference(id: mapping.id, name: mapping.name))) }
        return (found, nil)
    }

    /// Removes one mapping (`DELETE /__admin/mappings/{id}`); a persistent one's file is removed
    /// first (as WireMock). False when there is none.
    func removeSaving(id: String) throws(StubChangeError) -> Bool {
        let removed = try writes.withLock { _ throws(StubChangeError) -> Entry? in
            guard let entry = state.withLock({ s in s.entries.first { $0.mapping.id == id.lowercased() } }) else { return nil }
            if entry.mapping.isPersistent, let file = entry.file {
                if file.holdsSeveral { throw .notSaved(StubStore.readOnly(entry.mapping.id, file)) }
                do { try DurableFile.remove(file.path) } catch {
                    throw .notSaved(StubNotSaved(status: .serviceUnavailable, description: "the mapping stays: \(error)"))
                }
                state.withLock { s in s.folderFiles[entry.mapping.id] = nil }
            }
            return take(id: id)
        }
        if let removed { report(.removed([StubReference(id: removed.mapping.id, name: removed.mapping.name)])) }
        return removed != nil
    }

    /// `POST /__admin/mappings/save`: every mapping its file does not hold (added or changed over
    /// HTTP) is written to the folder, marked `persistent: true` (as WireMock marks them), all or
    /// none. Returns how many were written.
    func saveAll() throws(StubChangeError) -> Int {
        guard let files else {
            throw .notSaved(StubNotSaved(status: .conflict, description: "nothing saved: this server has no mappings folder; start it with --mappings DIR"))
        }
        let saved = try writes.withLock { _ throws(StubChangeError) -> Int in
            let pending = state.withLock { s in s.entries.filter { !$0.saved }.sorted { $0.sequence < $1.sequence } }
            let marked = pending.map(\.mapping.markedPersistent)
            let written = try write(marked, in: files)
            for mapping in marked { _ = swap(id: mapping.id, with: mapping, written: written[mapping.id]) }
            return marked.count
        }
        if saved > 0 { report(.saved(saved)) }
        return saved
    }

    /// Writes each mapping to its file (the one that holds its id, loaded or not, else a new one
    /// named as WireMock names them), all or none; under `writes`. Returns each mapping's file by id.
    private func write(_ mappings: [StubMapping], in files: StubFiles) throws(StubChangeError) -> [String: StubFileOrigin] {
        let known = state.withLock { s in
            s.folderFiles.merging(s.entries.compactMap { e in e.file.map { (e.mapping.id, $0) } }, uniquingKeysWith: { _, loaded in loaded })
        }
        var origins: [String: StubFileOrigin] = [:]
        var listing: [String]?
        for mapping in mappings {
            let origin: StubFileOrigin
            if let file = known[mapping.id] {
                origin = file
            } else if let file = StubStore.fileNamed(for: mapping.id, in: files, listing: &listing) {
                // Put there from outside since the folder was read: its name ends in the id.
                origin = file
            } else {
                // A name already in the folder in another case is that file on a Mac's volume;
                // taking its spelling makes Linux replace it too, not add a second file with the id.
                let entries = listing ?? ((try? FileManager.default.contentsOfDirectory(atPath: files.mappingsFolder)) ?? [])
                listing = entries
                let name = StubMappingFile.name(for: mapping)
                let path = files.mappingsFolder + "/" + (entries.first { $0.equalsIgnoringASCIICase(name) } ?? name)
                if let owner = known.first(where: { $0.value.path == path }) {
                    throw .notSaved(StubNotSaved(status: .conflict, description: "mapping \(mapping.id) would be written to \(path), which holds mapping \(owner.key): rename that file or give the mapping another name"))
                }
                origin = StubFileOrigin(path: path, holdsSeveral: false, folder: files.mappingsFolder)
            }
            if origin.holdsSeveral { throw .notSaved(StubStore.readOnly(mapping.id, origin)) }
            origins[mapping.id] = origin
        }
        var staged: [DurableFile.Staged] = []
        do {
            for mapping in mappings {
                guard let origin = origins[mapping.id] else { continue }
                staged.append(try DurableFile.stage(origin.path, with: StubMappingFile.contents(of: mapping)))
            }
            try DurableFile.commit(staged)
        } catch {
            DurableFile.discard(staged)
            throw .notSaved(StubNotSaved(status: .serviceUnavailable, description: "nothing changed: \(error)"))
        }
        return origins
    }

    /// A file of the folder's top level named as WireMock names a mapping's file (`NAME-ID.json`
    /// or `ID.json`, in any case) that holds the one mapping `id`: a file of several, or of another
    /// mapping, is never overwritten.
    private static func fileNamed(for id: String, in files: StubFiles, listing: inout [String]?) -> StubFileOrigin? {
        let entries = listing ?? ((try? FileManager.default.contentsOfDirectory(atPath: files.mappingsFolder)) ?? [])
        listing = entries
        let suffix = id.lowercased() + ".json"
        for name in entries where !name.hasPrefix(".") {
            let lower = name.lowercased()
            guard lower == suffix || lower.hasSuffix("-" + suffix) else { continue }
            let path = files.mappingsFolder + "/" + name
            guard let bytes = FileBytes.read(path), let value = JSONValue.parse(bytes), value.isObject, value["mappings"] == nil,
                  (value["id"]?.string ?? value["uuid"]?.string)?.lowercased() == id.lowercased() else { continue }
            return StubFileOrigin(path: path, holdsSeveral: false, folder: files.mappingsFolder)
        }
        return nil
    }

    private static func readOnly(_ id: String, _ file: StubFileOrigin) -> StubNotSaved {
        StubNotSaved(status: .conflict, description: "mapping \(id) is in \(file.path), a file of several mappings, which is read-only (as in WireMock): move it to a file of its own to change it over HTTP")
    }
}
