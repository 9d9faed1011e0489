import MockControl
import Stubs

extension StubControls {
    /// The control plane's view of `store`: `/__admin` for the guard, the store's change log and
    /// warnings for the log and the events stream, its reset, the recorder's exchanges, and
    /// journal entries kept as mappings.
    init(store: StubStore) {
        self.init(adminPrefix: StubAdmin.prefix,
                  setSystemPaths: { owns in store.setSystemPaths(owns) },
                  observeChanges: { hear in store.observe { change in hear { change.summary } } },
                  observeWarnings: { hear in StubWarnings.observe(hear) },
                  reset: { store.removeAll(keepFiles: true); store.clearGlobalSettings() })
        clearRecordedExchanges = { store.recorder.clearLog() }
        keep = { answer in
            StubAdmin.keep(method: answer.method, url: answer.url, status: answer.status, headers: answer.headers, body: answer.body, in: store)
        }
    }
}
