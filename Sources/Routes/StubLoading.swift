import HTTPServer
import Stubs
import EmulationKit

/// `--mappings DIR` (and `EmbeddedMockServer`'s mappings folder): a stub store with the folder's
/// mappings loaded. Each mapping loads alone: the refused ones are in the store's `loadRecord`
/// (the caller logs them); only a missing `DIR/mappings`, or under `strict` any refused mapping
/// (every one listed), stops it.
package enum StubLoading {
    /// - Parameters:
    ///   - strict: `--mappings-strict`: all or none, as a CI run wants.
    ///   - templateAll: `--global-response-templating`.
    package static func store(root: String, clock: any Clock, strict: Bool = false, templateAll: Bool = false) throws -> StubStore {
        let files = StubFiles(root: root)
        let store = StubStore(files: files, templateAll: templateAll, now: { clock.now() })
        let folder = try files.loadFolder(templateAll: templateAll)
        if strict, let error = folder.strictError { throw error }
        try store.reloadFiles(folder)
        return store
    }

    /// A store without a folder whose every response is a template (`--global-response-templating` without `--mappings`).
    package static func templatingStore(clock: any Clock) -> StubStore {
        StubStore(templateAll: true, now: { clock.now() })
    }
}
