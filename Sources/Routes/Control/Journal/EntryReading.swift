import EmulationKit

/// What showing a journal entry needs to know of the systems: the fields to hide and how each
/// names its WebSocket messages. Built from the running systems; the plane names none of them.
package struct EntryReading: Sendable {
    package let redaction: Redaction
    private let systems: [String: any EmulatedSystem.Type]

    package init(systems: SystemCatalog) {
        redaction = Redaction(systems: systems)
        self.systems = Dictionary(systems.types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The common secrets only, and no message types.
    package init() {
        redaction = Redaction()
        systems = [:]
    }

    /// The type `system` gives a WebSocket message (`LOGIN_CUSTOMER`), if any.
    package func messageType(of message: [UInt8], system: String?) -> String? {
        guard let system, let type = systems[system] else { return nil }
        return type.readMessage(message)?.type
    }
}
