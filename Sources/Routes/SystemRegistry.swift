/// Every emulated system, in the order the banner, the console and the documents list them: the
/// one place outside a system's folder that names it.
public enum SystemRegistry {
    /// The systems' types; a sixth system is one more entry here.
    public static let types: [any EmulatedSystem.Type] = [
        RowsApp.self, CustomerGateway.self, SkyZone.self, Musbooking.self, RSSchool.self,
    ]

    /// Every system's name (API.md §6.1), in order.
    public static let names: [String] = types.map { $0.name }

    /// Every system's operator settings (flags and seed `settings` keys), in order.
    public static let settings: [SystemSetting] = types.flatMap { $0.settings }

    /// The names of systems whose fault rules match WebSocket message types.
    static let messageTypedNames: Set<String> = Set(types.filter { $0.faultsMatchMessageTypes }.map { $0.name })

    /// Those names as error messages say them (`gateway`, or `a or b`).
    static let messageTypedTitle: String = messageTypedNames.sorted().joined(separator: " or ")

    /// One instance of each system over `seed`.
    static func makeSystems(seed: Seed, environment: MockEnvironment) -> [any EmulatedSystem] {
        types.map { $0.make(seed: seed, environment: environment) }
    }
}
