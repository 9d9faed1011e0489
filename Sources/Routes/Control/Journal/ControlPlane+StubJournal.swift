import HTTPServer
import Stubs

/// `/__admin/requests` reads the same journal as `/__mock/requests`.
extension ControlPlane: StubJournal {
    package func loggedRequests() -> [StubLoggedRequest] {
        var filter = RequestJournal.Filter()
        filter.limit = journal.capacity
        return journal.entries(filter).compactMap { entry in
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
    package func clearRequests() {
        journal.clear()
        stubs.recorder.clearLog()
    }

    package func removeRequests(ids: Set<Int>) { journal.remove(ids: ids) }

    package var isJournalDisabled: Bool { !journal.isEnabled }
}
