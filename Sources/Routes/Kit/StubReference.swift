import HTTPServer
import MockAdminWire

/// Where a stub answer came from: its mapping's id and name, as the journal shows it (the admin
/// client's type). Named in the kit, below both the stubs (which make it) and the control plane's
/// journal (which records it), so neither imports the other.
package typealias StubReference = MockJournalEntry.Stub

extension MockJournalEntry.Stub {
    /// The journal's system for every stub answer (`/__mock/requests?system=stubs`).
    package static let systemName = "stubs"

    /// `{"id": …, "name": …}`, as the journal and the events show it.
    package var json: JSONValue { (try? JSONValue(encoding: self)) ?? .null }
}
