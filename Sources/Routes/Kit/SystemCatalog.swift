/// The registered systems as a value: what the control plane, fault parsing, seed decoding and
/// settings know of them. The composition root builds it from `SystemRegistry.types` and passes
/// it in; nothing below the root reads the registry.
package struct SystemCatalog: Sendable {
    /// The systems' types, in the order the banner, the console and the documents list them.
    package let types: [any EmulatedSystem.Type]
    /// Every system's name, in order.
    package let names: [String]
    /// Every system's operator settings (flags and seed `settings` keys), in order.
    package let settings: [SystemSetting]
    /// The names of systems whose fault rules match WebSocket message types.
    package let messageTypedNames: Set<String>
    /// Those names as error messages say them (`gateway`, or `a or b`).
    package let messageTypedTitle: String

    package init(_ types: [any EmulatedSystem.Type]) {
        self.types = types
        names = types.map { $0.name }
        settings = types.flatMap { $0.settings }
        messageTypedNames = Set(types.filter { $0.faultsMatchMessageTypes }.map { $0.name })
        messageTypedTitle = messageTypedNames.sorted().joined(separator: " or ")
    }

    /// The catalog of these running systems (one entry per system, in their order).
    package init(of systems: [any EmulatedSystem]) {
        self.init(systems.map { type(of: $0) })
    }
}
