import HTTPServer

/// One WireMock 2.x stub mapping, checked field by field when read: a field this server does not
/// support is refused (422 naming it), never ignored.
package struct StubMapping: Sendable {
    /// A UUID in lower case (given, or made when the mapping is added).
    package let id: String
    package let name: String?
    /// 1 is the highest; WireMock's default is 5.
    package let priority: Int
    let request: RequestPattern
    let response: StubResponse
    package let scenarioName: String?
    package let requiredScenarioState: String?
    package let newScenarioState: String?
    /// The mapping as WireMock shows it: what was given, with `id` and `uuid` set.
    package let json: JSONValue

    package static let defaultPriority = 5
    static let fields = ["id", "uuid", "name", "request", "response", "priority", "scenarioName", "requiredScenarioState",
                         "newScenarioState", "persistent", "metadata"]
    static let refused: [String: String] = [
        "postServeActions": "postServeActions (webhooks) are not supported",
        "insertionIndex": "insertionIndex is set by the server",
    ]

    /// Reads one mapping object; `id` is used when the mapping has none.
    package static func decode(_ value: JSONValue, at pointer: String = "", filesRoot: String?, newId: String) throws(StubProblem) -> StubMapping {
        let object = try StrictObject(value, at: pointer, what: "a mapping")
        try object.allow(fields, unsupported: refused)
        let givenId = try object.string("id"), givenUUID = try object.string("uuid")
        let given = givenId ?? givenUUID
        if let given, !UUIDString.isValid(given) { throw StubProblem(pointer + "/id", "\"id\" must be a UUID such as 8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7") }
        if let a = givenId, let b = givenUUID, a.lowercased() != b.lowercased() {
            throw StubProblem(pointer + "/uuid", "\"id\" and \"uuid\" differ")
        }
        guard let requestValue = object["request"] else { throw StubProblem(pointer + "/request", "\"request\" is required") }
        let request = try RequestPattern.decode(requestValue, at: pointer + "/request")
        let response = try StubResponse.decode(object["response"] ?? .object([]), at: pointer + "/response", filesRoot: filesRoot)
        if let metadata = object["metadata"], !metadata.isObject { throw StubProblem(pointer + "/metadata", "\"metadata\" must be an object") }
        _ = try object.bool("persistent")
        let scenario = try object.string("scenarioName")
        let required = try object.string("requiredScenarioState"), next = try object.string("newScenarioState")
        if scenario == nil && (required != nil || next != nil) {
            throw StubProblem(pointer + "/scenarioName", "requiredScenarioState and newScenarioState need a \"scenarioName\"")
        }
        let name = try object.string("name")
        // The name is sent as `Matched-Stub-Name`: a line break in it would be a header line.
        if let name, StubFraming.breaksLine(name) { throw StubProblem(pointer + "/name", "\"name\" may not contain CR, LF or NUL") }
        let id = (given ?? newId).lowercased()
        var json = StubMapping.withoutNulls(value).stubSetting("id", .string(id)).stubSetting("uuid", .string(id))
        if object["response"] == nil { json = json.stubSetting("response", ["status": 200]) }
        return StubMapping(id: id, name: name, priority: try object.int("priority", in: 1...Int(Int32.max)) ?? defaultPriority,
                           request: request, response: response, scenarioName: scenario, requiredScenarioState: required,
                           newScenarioState: next, json: json)
    }

    /// The mapping without `null` members in itself, its `request` and its `response`: a null
    /// is read as absent, so it is stored and shown absent too, never as a `null` where the
    /// OpenAPI document declares a string (S10). Values inside (a `jsonBody`, `metadata`'s
    /// members) keep their nulls.
    private static func withoutNulls(_ value: JSONValue) -> JSONValue {
        func dropped(_ value: JSONValue) -> JSONValue {
            guard case .object(let members) = value else { return value }
            return .object(members.filter { $0.value != .null })
        }
        guard case .object(let members) = value else { return value }
        return .object(members.compactMap { member in
            switch member.key {
            case _ where member.value == .null: return nil
            case "request", "response": return (member.key, dropped(member.value))
            default: return member
            }
        })
    }

    /// `{"id", "name"}`, as the journal, the log and the events name the stub that answered.
    package var reference: JSONValue { ["id": .string(id), "name": JSONValue(name)] }
}

/// A file or a request body of mappings: one mapping, an array of them, or `{"mappings": [...]}`.
enum StubDocument {
    /// The mapping objects in `value`, each with its JSON pointer.
    static func mappings(in value: JSONValue) throws(StubProblem) -> [(JSONValue, String)] {
        switch value {
        case .array(let items): return items.enumerated().map { ($1, "/\($0)") }
        case .object(let members) where members.contains(where: { $0.key == "mappings" }):
            let object = try StrictObject(value, at: "", what: "a mappings document")
            try object.allow(["mappings", "meta", "importOptions"])
            guard case .array(let items)? = object["mappings"] else { throw StubProblem("/mappings", "\"mappings\" must be an array") }
            return items.enumerated().map { ($1, "/mappings/\($0)") }
        case .object: return [(value, "")]
        default: throw StubProblem("/", "a mapping must be a JSON object, an array of them, or {\"mappings\": [...]}")
        }
    }
}
