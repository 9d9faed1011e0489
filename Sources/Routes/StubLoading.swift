import HTTPServer
import Stubs
import EmulationKit

/// `--mappings DIR` (and `EmbeddedMockServer`'s mappings folder): a stub store with the folder's
/// mappings loaded, or the first problem with its file, line and column.
package enum StubLoading {
    package static func store(root: String, clock: any Clock, limits: StubLimits = StubLimits()) throws -> StubStore {
        let files = StubFiles(root: root)
        let store = StubStore(files: files, limits: limits, now: { clock.now() })
        try store.reloadFiles(try files.loadFolder())
        return store
    }

    /// A store without a folder (stubs come over HTTP only), with these limits.
    package static func emptyStore(clock: any Clock, limits: StubLimits) -> StubStore {
        StubStore(limits: limits, now: { clock.now() })
    }
}
