import HTTPServer
import EmulationKit

/// One WireMock 2.x stub mapping, checked field by field when read: a field this server does not
/// support is refused (422 naming it, or listed as refused when its folder loads), never ignored.
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
    /// `postServeActions` webhooks, sent after each answer.
    let webhooks: [StubWebhook]
    /// The mapping as WireMock shows it: what was given, with `id` and `uuid` set.
    package let json: JSONValue

    static let defaultPriority = 5
    static let fields = ["id", "uuid", "name", "request", "response", "priority", "scenarioName", "requiredScenarioState",
                         "newScenarioState", "persistent", "metadata", "insertionIndex", "postServeActions"]

    /// Reads one mapping object; `id` is used when the mapping has none. `templateAll`: every
    /// response is a template (`--global-response-templating`), as if it named `response-template`.
    ///
    /// What WireMock 2.35.1 accepts with a clear meaning is accepted: `{}` (any request, 200),
    /// `insertionIndex` (its own save writes it; the order here is the load order, so it is
    /// dropped), a numeric string as `priority`, an empty or null `id`/`uuid` (one is made), `id`
    /// and `uuid` both given and different (the later in the object wins, as Jackson reads it:
    /// WireMock writes `uuid` last), and an empty `postServeActions`.
    package static func decode(_ value: JSONValue, at pointer: String = "", filesRoot: String?, newId: String,
                               templateAll: Bool = false) throws(StubProblem) -> StubMapping {
        let object = try StrictObject(value, at: pointer, what: "a mapping")
        try object.allow(fields, wireMock: .stubMapping)
        let webhooks = try object["postServeActions"].map { actions throws(StubProblem) in
            try StubWebhook.decodeActions(actions, at: pointer + "/postServeActions")
        } ?? []
        let given = try givenId(object)
        if let given, !UUIDText.isValid(given.id) {
            throw StubProblem(pointer + "/" + given.key, "\"\(given.key)\" must be a UUID such as 8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7")
        }
        // `{}` is WireMock's "any request": method ANY, every URL.
        let request = try RequestPattern.decode(object["request"] ?? ["method": "ANY"], at: pointer + "/request")
        let response = try StubResponse.decode(object["response"] ?? .object([]), at: pointer + "/response", filesRoot: filesRoot,
                                               templateAll: templateAll)
        if let metadata = object["metadata"], !metadata.isObject { throw StubProblem(pointer + "/metadata", "\"metadata\" must be an object") }
        _ = try object.bool("persistent")
        if let index = object["insertionIndex"], !index.isStubNumber {
            throw StubProblem(pointer + "/insertionIndex", "\"insertionIndex\" must be a number (WireMock writes it; remove the field)")
        }
        let scenario = try object.string("scenarioName")
        let required = try object.string("requiredScenarioState"), next = try object.string("newScenarioState")
        if scenario == nil && (required != nil || next != nil) {
            throw StubProblem(pointer + "/scenarioName", "requiredScenarioState and newScenarioState need a \"scenarioName\"")
        }
        let name = try object.string("name")
        // The name is sent as `Matched-Stub-Name`: a line break in it would be a header line.
        if let name, StubFraming.breaksLine(name) { throw StubProblem(pointer + "/name", "\"name\" may not contain CR, LF or NUL") }
        let id = (given?.id ?? newId).lowercased()
        var json = StubMapping.withoutNulls(.object(value.stubMembers.filter {
            $0.key != "insertionIndex" && !($0.key == "postServeActions" && webhooks.isEmpty)
        }))
        json = json.stubSetting("id", .string(id)).stubSetting("uuid", .string(id))
        if object["request"] == nil { json = json.stubSetting("request", ["method": "ANY"]) }
        if object["response"] == nil { json = json.stubSetting("response", ["status": 200]) }
        let priority = try priority(object, at: pointer)
        // Shown as WireMock shows it once read: a number.
        if case .string? = object["priority"] { json = json.stubSetting("priority", .number(Double(priority))) }
        return StubMapping(id: id, name: name, priority: priority,
                           request: request, response: response, scenarioName: scenario, requiredScenarioState: required,
                           newScenarioState: next, webhooks: webhooks, json: json)
    }

    /// The id the mapping gives, and under which key: `id` or `uuid`, empty or null meaning none;
    /// both given, the later in the object (Jackson sets the field twice).
    private static func givenId(_ object: StrictObject) throws(StubProblem) -> (key: String, id: String)? {
        var found: (key: String, id: String)?
        for key in object.keys where key == "id" || key == "uuid" {
            guard let text = try object.string(key), !text.isEmpty else { continue }
            found = (key, text)
        }
        return found
    }

    /// `priority`: a whole number, or one written as a string (`"1"`), as Jackson reads an Integer.
    private static func priority(_ object: StrictObject, at pointer: String) throws(StubProblem) -> Int {
        let range = 0...Int(Int32.max)
        if case .string(let text)? = object["priority"] {
            guard let n = Int(text), range.contains(n) else {
                throw StubProblem(pointer + "/priority", "\"priority\" must be a whole number from 0 to \(range.upperBound) (1 is the highest), not \"\(text)\"")
            }
            return n
        }
        return try object.int("priority", in: range) ?? defaultPriority
    }

    /// The same mapping under another id (an id two files of the folder give: the earlier one's).
    func withId(_ newId: String) -> StubMapping {
        StubMapping(id: newId, name: name, priority: priority, request: request, response: response, scenarioName: scenarioName,
                    requiredScenarioState: requiredScenarioState, newScenarioState: newScenarioState, webhooks: webhooks,
                    json: json.stubSetting("id", .string(newId)).stubSetting("uuid", .string(newId)))
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

extension JSONValue {
    /// Whether this is a JSON number.
    var isStubNumber: Bool {
        if case .number = self { return true }
        return false
    }
}
