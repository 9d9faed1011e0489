import HTTPServer

/// Where a stub answer came from: its mapping's id and name. Declared in the kit, below both the
/// stubs (which make it) and the control plane's journal (which records it), so neither imports
/// the other.
package struct StubReference: Sendable, Equatable {
    package let id: String
    package let name: String?

    /// The journal's system for every stub answer (`/__mock/requests?system=stubs`).
    package static let systemName = "stubs"

    package init(id: String, name: String?) {
        self.id = id
        self.name = name
    }

    package var json: JSONValue { ["id": .string(id), "name": JSONValue(name)] }
}
