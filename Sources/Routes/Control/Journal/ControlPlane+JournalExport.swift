import HTTPServer
import EmulationKit

extension ControlPlane {
    // The journal's ways out: a HAR file for devtools.

    /// `GET /__mock/requests.har`: the matching entries (the filters of `GET /__mock/requests`) as
    /// a HAR 1.2 document.
    package var requestsHARHandler: HTTPHandler {
        journalHandler { journal, entries in
            .json(.ok, bytes: Array(JournalHAR.document(entries, reading: journal.reading).jsonText.utf8))
        }
    }
}
