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
    ///   - limits: what a stub may answer (`--max-stub-body-bytes`).
    package static func store(root: String, clock: any Clock, strict: Bool = false, templateAll: Bool = false,
                              limits: StubLimits = StubLimits()) throws -> StubStore {
        let files = StubFiles(root: root)
        let store = StubStore(files: files, templateAll: templateAll, limits: limits, now: { clock.now() })
        let folder = try files.loadFolder(templateAll: templateAll)
        if strict, let error = folder.strictError { throw error }
        try store.reloadFiles(folder)
        return store
    }

    /// A store without a folder (stubs come over HTTP only): every response a template when
    /// `templateAll` (`--global-response-templating`), with these limits.
    package static func emptyStore(clock: any Clock, templateAll: Bool = false, limits: StubLimits = StubLimits()) -> StubStore {
        StubStore(templateAll: templateAll, limits: limits, now: { clock.now() })
    }
}
