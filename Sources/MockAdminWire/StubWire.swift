/// A mapping of the server's `--mappings` folder that its last load (start, reset, `--watch`
/// reload) refused; the rest of the folder loaded (`GET /__admin/mappings/refused`).
public struct MockRefusedStub: Codable, Sendable, Equatable {
    /// The mapping's file.
    public let file: String
    /// The JSON pointer of the field at fault (`/` for the whole file).
    public let pointer: String
    /// Why, and what to do about it.
    public let reason: String

    /// A refusal; an empty pointer means the whole file (`/`).
    public init(file: String, pointer: String, reason: String) {
        self.file = file
        self.pointer = pointer.isEmpty ? "/" : pointer
        self.reason = reason
    }
}

/// A stub scenario and its state, as `GET /__admin/scenarios` lists it (the server adds the
/// scenario's `mappings`, in WireMock's mapping form).
public struct MockStubScenario: Codable, Sendable, Equatable {
    /// The scenario's id: its name, as WireMock 2.x gives it.
    public let id: String
    /// The scenario's name.
    public let name: String
    /// Its current state (`Started` at first).
    public let state: String
    /// The states its stubs name.
    public let possibleStates: [String]

    /// Scenario `name` in `state`, whose stubs name `possibleStates`.
    public init(name: String, state: String, possibleStates: [String]) {
        id = name
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
    }
}
