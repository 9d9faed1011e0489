import EmulationKit
import HTTPServer
import MockControl

/// The registry-defaulted forms of what takes the systems as a value, for tests and embedders:
/// the composition root is the one place that may name the registry.
extension FaultRuleDraft {
    /// Reads and checks a posted rule body against the registered systems.
    package static func parse(_ body: [UInt8]) throws -> FaultRuleDraft {
        try parse(body, systems: SystemRegistry.catalog)
    }
}

extension OAS {
    /// Every documented operation of the registered systems (the admin API's are its table's, `MockAdmin.routes`).
    static var systemOperations: [String: Object] { operations(SystemRegistry.catalog, admin: [:]) }
}

extension Redaction {
    /// What the journal hides with every registered system's secret fields.
    static let registered = Redaction(systems: SystemRegistry.catalog)

    /// A header value, masked when the header carries credentials.
    package static func header(_ name: String, _ value: String) -> String { registered.header(name, value) }
    /// A query string or form body, secret values replaced.
    package static func form(_ text: String) -> String { registered.form(text) }
    /// A body as text, redacted for every encoding it may be in.
    package static func body(_ bytes: [UInt8], contentType: String?) -> String { registered.body(bytes, contentType: contentType) }
    /// JSON text (complete or cut), secret values replaced.
    package static func json(_ text: String) -> String { registered.json(text) }
}

extension JournalEntry {
    /// The entry as a reader sees it, with every registered system's secret fields redacted.
    package var json: JSONValue { json(EntryReading(systems: SystemRegistry.catalog)) }
}
