import HTTPServer
import EmulationKit

extension ControlPlane {
    // The journal's ways out: a HAR file for devtools, and one entry kept as a stub mapping.

    /// `GET /__mock/requests.har`: the matching entries (the filters of `GET /__mock/requests`) as
    /// a HAR 1.2 document.
    package var requestsHARHandler: HTTPHandler {
        journalHandler { journal, entries in
            .json(.ok, bytes: Array(JournalHAR.document(entries, reading: journal.reading).jsonText.utf8))
        }
    }

    /// `POST /__mock/requests/{id}/stub`: entry `id`'s answer as a stub mapping for its method and
    /// target (201 and the mapping); 404 for an id the journal does not hold, 409 without stubs,
    /// 422 for an entry with nothing whole to replay.
    package var keepAsStubHandler: HTTPHandler {
        { [self] _, context in
            let text = context.pathParameters["id"] ?? ""
            guard let id = Int(text), let entry = journal.entry(id: id) else {
                return HTTPResponse.json(.notFound, sorted: ["error": .string("no journal entry with id \(text)")])
                    .hinted("GET /__mock/requests lists the entries and their ids; the journal keeps the newest \(journal.capacity), and DELETE /__mock/requests or POST /__mock/reset empties it.")
            }
            guard let keep = stubs.keep else {
                return HTTPResponse.json(.conflict, sorted: ["error": .string("this server has no stub mappings to add the entry to")])
                    .hinted("Only a mock with stubs (mock-server, MockApp) keeps entries as stubs.")
            }
            if let refusal = ControlPlane.unkeepable(entry) {
                return HTTPResponse.json(HTTPStatus(code: 422), sorted: ["error": .string("entry \(id) cannot be kept as a stub: \(refusal.why)")])
                    .hinted(refusal.hint)
            }
            let url = entry.query.isEmpty ? entry.path : entry.path + "?" + entry.query
            return keep(StubControls.KeptAnswer(method: entry.method, url: url, status: entry.status ?? 0,
                                                headers: entry.responseHeaders, body: entry.responseBody))
        }
    }

    /// Why an entry cannot be replayed as it went out, and what to do instead; nil when it can.
    private static func unkeepable(_ entry: JournalEntry) -> (why: String, hint: String)? {
        if entry.isWebSocket {
            return ("it is a WebSocket message, not an HTTP exchange", "Keep an HTTP request's entry; gateway replies are scripted with fault rules (POST /__mock/faults).")
        }
        guard entry.status != nil else {
            return ("no answer went out (the connection was closed or reset by a fault)", "Keep an entry that was answered; remove the fault (DELETE /__mock/faults) and send the request again.")
        }
        if case .truncate? = entry.fault?.action {
            return ("a fault cut its body in half on the wire", "Remove the fault (DELETE /__mock/faults), send the request again and keep that entry.")
        }
        if entry.responseCut {
            return ("its response body was over \(JournalEntry.keepWhole) bytes and the journal kept only its start, so the stub would answer a different body",
                    "Record it through the proxy instead (POST /__admin/recordings/start), which keeps whole bodies, or add the mapping with POST /__admin/mappings.")
        }
        return nil
    }
}
