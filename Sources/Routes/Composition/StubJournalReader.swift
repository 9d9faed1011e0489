import HTTPServer
import MockControl
import Stubs

/// `/__admin/requests` reads the same journal as `/__mock/requests`: the control plane's, seen
/// as the stubs' admin API wants it (the plane does not know the stubs' types).
struct StubJournalReader: StubJournal {
    let control: ControlPlane
    let stubs: StubStore

    func loggedRequests() -> [StubLoggedRequest] {
        var filter = RequestJournal.Filter()
        filter.limit = control.journal.capacity
        return control.journal.entries(filter).compactMap { entry in
            guard !entry.isWebSocket else { return nil }
            let url = entry.query.isEmpty ? entry.path : entry.path + "?" + entry.query
            return StubLoggedRequest(id: entry.id, at: entry.at,
                                     request: StubRequest(method: entry.method, url: url, headers: entry.requestHeaders, body: entry.requestBody),
                                     clientIP: entry.remoteAddress, status: entry.status, responseBody: entry.responseBody, stub: entry.stub,
                                     // Unmatched: no stub answered and no system owns the path (the plain 404).
                                     wasMatched: entry.stub != nil || entry.system != nil)
        }
    }

    /// The journal, and the proxied exchanges a snapshot reads (as WireMock's snapshot reads its journal).
    func clearRequests() {
        control.journal.clear()
        stubs.recorder.clearLog()
    }

    func removeRequests(ids: Set<Int>) { control.journal.remove(ids: ids) }

    var isJournalDisabled: Bool { !control.journal.isEnabled }
}
